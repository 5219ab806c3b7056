# Prints the names of the profiles in paycli's config file ({"profiles": {"<name>": {...}}}), one a
# line. A small JSON scanner (any layout; strings, nesting and escapes are followed), not a full
# parser: a name containing a JSON escape such as \u00e9 is printed with the escape undone only for
# \" and \\. Embedded in every completion script (src/cli/completion/model.ts).
{ s = s $0 "\n" }
END {
  n = length(s); depth = 0; instr = 0; esc = 0; key = 0; pend = 0; inprof = 0
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (instr) {
      if (esc) { tok = tok c; esc = 0 }
      else if (c == "\\") esc = 1
      else if (c == "\"") { instr = 0; key = 1 }
      else tok = tok c
      continue
    }
    if (c == "\"") { instr = 1; tok = ""; key = 0; pend = 0; continue }
    if (c == " " || c == "\t" || c == "\n" || c == "\r") continue
    if (c == ":") { if (key && depth == 1 && tok == "profiles") pend = 1; else if (key && inprof && depth == 2) print tok; key = 0; continue }
    if (c == "{" || c == "[") { depth++; if (pend && c == "{" && depth == 2) inprof = 1; pend = 0; key = 0; continue }
    if (c == "}" || c == "]") { depth--; if (depth < 2) inprof = 0; pend = 0; key = 0; continue }
    key = 0; pend = 0
  }
}
