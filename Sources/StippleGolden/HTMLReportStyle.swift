import Stipple
/// The inline CSS and script of `HTMLReport`'s page.
extension HTMLReportPage {
    static let css = """
    :root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f6f7f9;--card:#fff;--pass:#157347;--fail:#c4281c;\
    --miss:#b25e09;--rec:#2463c6;--err:#8a1538;--nog:#6b3fa0;--flaky:#b8860b}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
    header{position:sticky;top:0;z-index:2;background:var(--card);border-bottom:1px solid var(--line);padding:12px 24px}
    h1{font-size:18px;margin:0 0 2px;display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
    .verdict{font-size:14px;font-weight:600}.verdict.ok{color:var(--pass)}.verdict.bad{color:var(--fail)}
    .run-driver{margin:0 0 8px;color:var(--muted)}.detail{color:var(--muted)}
    .bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
    .count{padding:2px 10px;border-radius:999px;background:var(--bg);border:1px solid var(--line)}
    .count.zero{opacity:.55}.count.v-passed b{color:var(--pass)}.count.v-failed b{color:var(--fail)}
    .count.v-missing b{color:var(--miss)}.count.v-recorded b{color:var(--rec)}.count.v-error b{color:var(--err)}
    .count.v-no-golden-for-driver b{color:var(--nog)}
    .filter{margin-left:auto;cursor:pointer;user-select:none}
    main{padding:16px 24px;display:flex;flex-direction:column;gap:10px}
    .case{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--pass);border-radius:6px;padding:10px 14px}
    .case.v-failed{border-left-color:var(--fail)}.case.v-missing{border-left-color:var(--miss)}
    .case.v-recorded{border-left-color:var(--rec)}.case.v-error{border-left-color:var(--err)}
    .case.v-no-golden-for-driver{border-left-color:var(--nog)}
    body.failures-only .case:not(.failure){display:none}
    .line{display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
    .badge{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:#fff;padding:1px 7px;\
    border-radius:4px;background:var(--pass)}
    .badge.v-failed{background:var(--fail)}.badge.v-missing{background:var(--miss)}.badge.v-recorded{background:var(--rec)}
    .badge.v-error{background:var(--err)}.badge.v-no-golden-for-driver{background:var(--nog)}
    .name{font-weight:600;font-family:ui-monospace,Menlo,Consolas,monospace}.message{color:var(--muted)}
    details{margin-left:auto;color:var(--muted)}details summary{cursor:pointer;font-size:12px}
    details[open]{flex-basis:100%;margin-left:0}
    .figures{display:flex;flex-wrap:wrap;gap:4px 18px;margin:8px 0 4px}
    .figures div{display:flex;gap:6px}.figures dt{color:var(--muted)}.figures dd{margin:0;font-variant-numeric:tabular-nums}
    .drivers{margin:4px 0;color:var(--muted)}.drivers b{color:var(--fg)}.mismatch{color:var(--fail)}
    .images{display:grid;grid-template-columns:repeat(4,minmax(0,260px));gap:12px;margin-top:8px}
    figure{margin:0}figcaption{font-size:12px;color:var(--muted);margin-bottom:3px}
    figure img{display:block;width:100%;border:1px solid var(--line);background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
    .pix{image-rendering:pixelated}
    .legend{margin:6px 0 0;font-size:12px;color:var(--muted)}
    .legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;border:1px solid #0003;vertical-align:-1px}
    .l-over{background:#f00}.l-within{background:#ffc800}.l-aa{background:#ff0}.l-ign{background:#6080e6}.l-out{background:#f0f}
    .gone{padding:12px;border:1px dashed var(--line);color:var(--muted)}
    .compare{margin-top:12px;max-width:544px}
    .stage{position:relative;cursor:pointer;border:1px solid var(--line);\
    background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
    .stage img{display:block;width:100%}.stage img.over{position:absolute;left:0;top:0;height:100%}
    .divider{position:absolute;top:0;bottom:0;width:2px;margin-left:-1px;background:#111;box-shadow:0 0 0 1px #fff}
    .compare input[type=range]{display:block;width:100%;margin:8px 0 4px}
    .controls{display:flex;gap:10px;align-items:center}
    .controls button{font:inherit;padding:3px 12px;cursor:pointer;white-space:nowrap;border:1px solid #c8ccd4;\
    border-radius:4px;background:#fff}.controls button:hover{background:var(--bg)}
    .showing{color:var(--muted)}
    .empty{color:var(--muted)}
    .case.v-flaky{border-left-color:var(--flaky)}.badge.v-flaky{background:var(--flaky)}.count.v-flaky b{color:var(--flaky)}
    .count.stale b{color:var(--miss)}
    .golden-path{margin:4px 0;color:var(--muted)}.golden-path code,.accept code{font-family:ui-monospace,Menlo,Consolas,monospace}
    .accept{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:6px 0;padding:6px 10px;background:#f2f5fb;\
    border:1px solid #d6deee;border-radius:4px}.accept span{color:var(--muted)}.accept code{font-size:13px;user-select:all}
    .accept button{font:inherit;font-size:12px;padding:1px 10px;cursor:pointer;border:1px solid #c8ccd4;border-radius:4px;background:#fff}
    .zoom{margin-top:10px}.zoom-title{margin:0 0 4px;color:var(--muted)}.zrow{display:flex;gap:12px;flex-wrap:wrap}
    .zbox{position:relative;border:1px solid var(--line);background-repeat:no-repeat;image-rendering:pixelated;\
    background-color:#fff;overflow:hidden}
    .zbox i{position:absolute;outline:2px solid #000;box-shadow:0 0 0 4px #fff}
    .zvalue{display:block;font-size:12px;color:var(--muted);margin-top:2px}
    """

    static let script = """
    (function () {
      "use strict";
      var only = document.getElementById("failures-only");
      function filter() { document.body.classList.toggle("failures-only", only.checked); }
      only.addEventListener("change", filter);
      filter();
      Array.prototype.forEach.call(document.querySelectorAll(".compare"), function (box) {
        var range = box.querySelector("input[type=range]");
        var over = box.querySelector("img.over");
        var divider = box.querySelector(".divider");
        var label = box.querySelector(".showing");
        function show() {
          var v = Number(range.value);
          over.style.clipPath = "inset(0 " + (100 - v) + "% 0 0)";
          divider.style.left = v + "%";
          divider.hidden = v === 0 || v === 100;
          label.textContent = v === 100 ? "showing actual" : v === 0 ? "showing expected"
            : "actual left of the line, expected right";
        }
        function flip() { range.value = Number(range.value) >= 50 ? 0 : 100; show(); }
        range.addEventListener("input", show);
        box.querySelector("button").addEventListener("click", flip);
        box.querySelector(".stage").addEventListener("click", flip);
        show();
      });
      Array.prototype.forEach.call(document.querySelectorAll("button.copy"), function (b) {
        b.addEventListener("click", function () {
          var text = b.getAttribute("data-copy");
          var done = function () { b.textContent = "Copied"; };
          if (navigator.clipboard && navigator.clipboard.writeText) {
            navigator.clipboard.writeText(text).then(done, function () { b.textContent = "Select the command to copy"; });
          } else {
            b.textContent = "Select the command to copy";
          }
        });
      });
      document.body.setAttribute("data-ready", "1");
    })();
    """
}
