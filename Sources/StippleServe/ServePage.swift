/// The page `serve` gives at `/`: Leaflet over the drawing's tiles (each shown as its preview
/// first, then its exact pixels), the view sent to the server as it moves, and drawing with
/// pointer events sent as touch-event lines over the WebSocket.
///
/// The page keeps its state where a test can read it: `document.body.dataset` holds
/// `version` (the drawing's last change seen), `loading` (tiles not yet exact) and `strokes`
/// (live strokes shown that are not yet in the tiles).
enum ServePage {
    static func html(title: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title)) — stipple serve</title>
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <style>
          html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; }
          #map { position: absolute; inset: 0; background: #e8e8e8; }
          #ink { position: absolute; left: 0; top: 0; width: 100%; height: 100%; z-index: 500; pointer-events: none; touch-action: none; }
          #ink.drawing { pointer-events: auto; cursor: crosshair; }
          #bar { position: absolute; top: 8px; right: 8px; z-index: 1000; background: #fffe; padding: 6px 8px;
                 border-radius: 6px; box-shadow: 0 1px 4px #0004; display: flex; gap: 6px; align-items: center; }
          #bar[hidden] { display: none; }
          #status { position: absolute; bottom: 6px; left: 8px; z-index: 1000; color: #333; background: #fffc; padding: 2px 6px; }
        </style></head>
        <body data-version="0" data-loading="0" data-strokes="0">
        <div id="map"></div><canvas id="ink"></canvas>
        <div id="bar" hidden>
          <button id="draw" title="Draw (D)">Draw</button>
          <select id="brush"></select>
          <input id="color" type="color" value="#1f5fd6"> <input id="radius" type="number" min="1" max="200" value="6" style="width:4em">
          <button id="undo">Undo</button><button id="redo">Redo</button><button id="clear">Clear</button>
        </div>
        <div id="status"></div>
        <script src="/leaflet/leaflet.js"></script>
        <script>
        \(script)
        </script></body></html>
        """
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let script = #"""
    'use strict';
    const token = new URLSearchParams(location.search).get('token') || '';
    const q = token ? '&token=' + encodeURIComponent(token) : '';
    const body = document.body, statusLine = document.getElementById('status');
    const ink = document.getElementById('ink'), pen = ink.getContext('2d');
    let info, map, layer, socket, client = 0, version = 0, drawing = false, loading = 0;
    const strokes = new Map();      // "client:stroke" -> {color, radius, points: [[x, y, p]], ended}
    const tileVersion = new Map();  // "z/x/y" -> the version asked for, where it differs from the first
    function setStatus(s) { statusLine.textContent = s; }
    function count() { body.dataset.loading = String(loading); body.dataset.strokes = String(strokes.size); }

    fetch('/drawing.json?' + q.slice(1)).then(r => r.json()).then(start).catch(e => setStatus('cannot load the drawing: ' + e));

    function start(d) {
      info = d; version = d.version; body.dataset.version = String(version);
      const s = 1 / (1 << d.topZoom);
      const crs = L.extend({}, L.CRS.Simple, { transformation: new L.Transformation(s, 0, s, 0) });
      map = L.map('map', { crs, minZoom: 0, maxZoom: d.topZoom + 2, zoomSnap: 1, attributionControl: false });
      const bounds = L.latLngBounds([0, 0], [d.height, d.width]);
      const Tiles = L.GridLayer.extend({
        createTile(c, done) {
          const img = document.createElement('img');
          img.alt = ''; img.setAttribute('role', 'presentation');
          load(img, c, done);
          return img;
        }
      });
      layer = new Tiles({ tileSize: d.tileSize, bounds, noWrap: true, maxNativeZoom: d.topZoom, minNativeZoom: 0,
                          keepBuffer: 1, updateWhenZooming: false });
      // A tile's exact pixels are held as a blob URL (`exact`), let go with the tile.
      layer.on('tileunload', e => { if (e.tile.dataset.blob) URL.revokeObjectURL(e.tile.dataset.blob); });
      layer.addTo(map);
      map.fitBounds(bounds);
      map.on('moveend zoomend', sendView);
      map.on('move zoom', redraw);
      window.addEventListener('resize', () => { sizeInk(); redraw(); });
      sizeInk();
      connect();
      if (d.canDraw) setUpDrawing(d);
      setStatus(d.name + ' · ' + d.width + '×' + d.height + (d.canDraw ? ' · you can draw' : ' · view only'));
    }

    // A tile: its preview, then its exact pixels, swapped in once they have arrived.
    function load(img, c, done) {
      // The version the page knows the tile at: the last change it was told of there, else
      // the drawing's when the page loaded (a tile made since holds it).
      const key = c.z + '/' + c.x + '/' + c.y, v = tileVersion.get(key) || info.version;
      const url = '/tiles/' + key + '.png?c=' + client + '&v=' + v + '&w=' + viewSeq + q;
      loading++; count();
      let finished = false;
      const finish = () => { if (!finished) { finished = true; loading--; count(); } };
      img.onload = () => {
        done(null, img);
        img.onload = null;
        exact(img, url, finish);
      };
      img.onerror = () => { done(null, img); finish(); };
      img.src = url + '&preview=1';
    }

    // Views are numbered, and tiles say which view they were asked for in: a view message
    // that arrives after tiles of a later view does not drop them.
    let viewSeq = 0;
    function sendView() {
      if (!socket || socket.readyState !== 1) return;
      viewSeq++;
      const z = Math.round(map.getZoom()), pb = map.getPixelBounds(), t = info.tileSize;
      const nz = Math.min(Math.max(z, 0), info.topZoom), f = Math.pow(2, nz - z);
      socket.send(JSON.stringify({ view: { seq: viewSeq, z: nz, x0: Math.max(0, Math.floor(pb.min.x * f / t)), x1: Math.floor(pb.max.x * f / t),
                                          y0: Math.max(0, Math.floor(pb.min.y * f / t)), y1: Math.floor(pb.max.y * f / t) } }));
    }

    function connect() {
      socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/live?' + q.slice(1));
      socket.onopen = sendView;
      socket.onclose = () => { setStatus('disconnected: reload to see the drawing again'); };
      // A message holds one or more lines, each a JSON object (the server sends together
      // what came while it was sending).
      socket.onmessage = m => { for (const line of m.data.split('\n')) handle(JSON.parse(line)); };
      function handle(msg) {
        if (msg.hello) { client = msg.hello.client;
          // A change between the drawing's figures and this greeting was never announced:
          // every tile again, as of the greeting (from here on each change is announced).
          if (msg.hello.version > info.version) { info.version = msg.hello.version; changed({ version: msg.hello.version, box: null }); } }
        else if (msg.live) { const e = msg.live.event, k = msg.live.client + ':' + msg.live.stroke;
          if (!strokes.has(k)) strokes.set(k, { color: e.color || '#1f5fd6', radius: e.radius || 6, points: [] });
          strokes.get(k).points.push([e.x, e.y, e.pressure ?? 1]); count(); redraw(); }
        else if (msg.aborted) { strokes.delete(msg.aborted.client + ':' + msg.aborted.stroke); count(); redraw(); }
        else if (msg.ended) { const s = strokes.get(msg.ended.client + ':' + msg.ended.stroke); if (s) s.ended = msg.ended.version; }
        else if (msg.changed) { changed(msg.changed); }
        else if (msg.ready) { const again = retries.get(msg.ready.z + '/' + msg.ready.x + '/' + msg.ready.y);
          if (again) { body.dataset.told = String(Number(body.dataset.told || 0) + 1); again(); } }
        else if (msg.error) { setStatus('refused: ' + msg.error.reason); }
      }
    }

    // The drawing changed over a box of canvas pixels (null: everywhere): those tiles again.
    function changed(c) {
      version = Math.max(version, c.version); body.dataset.version = String(version);
      const t = info.tileSize;
      for (const key in layer._tiles) {
        const tile = layer._tiles[key], co = tile.coords, span = t * Math.pow(2, info.topZoom - co.z);
        const x0 = co.x * span, y0 = co.y * span;
        if (c.box && (x0 >= c.box[2] || x0 + span <= c.box[0] || y0 >= c.box[3] || y0 + span <= c.box[1])) continue;
        const k = co.z + '/' + co.x + '/' + co.y;
        tileVersion.set(k, c.version);
        const url = '/tiles/' + k + '.png?c=' + client + '&v=' + c.version + q, img = tile.el;
        loading++; count();
        let finished = false;
        exact(img, url, () => { if (!finished) { finished = true; loading--; count(); settle(); } });
      }
      settle();
    }

    // A tile's exact pixels, shown once they arrive. Where the drawing changes faster than a
    // low zoom's tile can be made again, the server answers with the tile's last exact
    // pixels, marked stale: shown, and asked for again once the server says the tile is made
    // (a "ready" message), or a little later (less often each time) while the tile is on the map.
    const retries = new Map();
    function exact(img, url, finish, tries = 0) {
      fetch(url + (tries ? '&r=' + tries : '')).then(r => {
        if (!r.ok) throw new Error(String(r.status));
        const stale = r.headers.get('X-Stipple-Tile') === 'stale';
        return r.blob().then(b => {
          if (!img.isConnected) { finish(); return; }  // the tile left the map meanwhile
          const shown = img.dataset.blob;
          img.src = img.dataset.blob = URL.createObjectURL(b);
          if (shown) URL.revokeObjectURL(shown);
          if (stale) {
            const k = url.slice(7, url.indexOf('.png')), again = () => { clearTimeout(timer); retries.delete(k); exact(img, url, finish, tries + 1); };
            const timer = setTimeout(again, Math.min(4000, 250 << tries));
            retries.set(k, again);
            return;
          }
          if (!stale) img.dataset.exact = '1';
          finish(); settle();
        });
      }).catch(finish);
    }

    // Live strokes already in the tiles shown are taken off the overlay.
    function settle() {
      if (loading > 0) return;
      for (const [k, s] of strokes) if (s.ended && s.ended <= version) strokes.delete(k);
      count(); redraw();
    }

    function sizeInk() { ink.width = ink.clientWidth * devicePixelRatio; ink.height = ink.clientHeight * devicePixelRatio; }

    function redraw() {
      if (!map) return;
      pen.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
      pen.clearRect(0, 0, ink.width, ink.height);
      const scale = Math.pow(2, map.getZoom() - info.topZoom);
      for (const s of strokes.values()) {
        pen.strokeStyle = s.color; pen.fillStyle = s.color; pen.lineCap = 'round'; pen.lineJoin = 'round';
        let last = null;
        for (const [x, y, p] of s.points) {
          const pt = map.latLngToContainerPoint([y, x]);
          pen.lineWidth = Math.max(1, 2 * s.radius * scale * (0.3 + 0.7 * p));
          if (last) { pen.beginPath(); pen.moveTo(last.x, last.y); pen.lineTo(pt.x, pt.y); pen.stroke(); }
          else { pen.beginPath(); pen.arc(pt.x, pt.y, pen.lineWidth / 2, 0, 7); pen.fill(); }
          last = pt;
        }
      }
    }

    function setUpDrawing(d) {
      const bar = document.getElementById('bar'), brush = document.getElementById('brush');
      bar.hidden = false;
      for (const b of d.brushes) { const o = document.createElement('option'); o.textContent = b; brush.appendChild(o); }
      const toggle = () => { drawing = !drawing; ink.classList.toggle('drawing', drawing);
        document.getElementById('draw').textContent = drawing ? 'Pan' : 'Draw';
        drawing ? map.dragging.disable() : map.dragging.enable(); };
      document.getElementById('draw').onclick = toggle;
      document.addEventListener('keydown', e => { if (e.key === 'd' && e.target.tagName !== 'INPUT') toggle(); });
      for (const verb of ['undo', 'redo', 'clear'])
        document.getElementById(verb).onclick = () => socket.send(JSON.stringify(verb === 'clear' ? { clear: true } : { [verb]: 1 }));
      let id = 0, current = null;
      const at = e => { const ll = map.containerPointToLatLng([e.offsetX, e.offsetY]); return [ll.lng, ll.lat]; };
      const send = (e, first) => {
        const [x, y] = at(e), p = e.pressure > 0 ? e.pressure : 0.5;
        const ev = { t: e.timeStamp / 1000, stroke: current, x: +x.toFixed(2), y: +y.toFixed(2), pressure: +p.toFixed(3) };
        if (first) { ev.brush = brush.value; ev.color = document.getElementById('color').value; ev.radius = +document.getElementById('radius').value; }
        socket.send(JSON.stringify(ev));
        const k = client + ':' + current;
        if (!strokes.has(k)) strokes.set(k, { color: ev.color, radius: ev.radius, points: [] });
        strokes.get(k).points.push([ev.x, ev.y, p]); count(); redraw();
      };
      ink.addEventListener('pointerdown', e => { if (!drawing) return;
        try { ink.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer may not be captured */ }
        current = ++id; send(e, true); });
      ink.addEventListener('pointermove', e => { if (current === null) return;
        for (const c of (e.getCoalescedEvents ? e.getCoalescedEvents() : [e])) send(c, false); });
      const end = () => { if (current === null) return; socket.send(JSON.stringify({ end: current })); current = null; };
      ink.addEventListener('pointerup', end); ink.addEventListener('pointercancel', end);
    }
    """#
}
