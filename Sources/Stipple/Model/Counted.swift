/// `1 frame`, `2 frames`, `0 frames`: a count and its noun in every message, so that no
/// message says "1 items". `plural` is for nouns that do not take an s.
package func counted(_ n: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
}
