#!/bin/sh
# export-speedscope.sh - --speedscope valid against speedscope's
# published file-format schema (shipped in the speedscope npm package,
# dist/release/file-format-schema.json, 1.25.0; copied here), its
# samples what monitor's summary says, and in the order they were taken:
# speedscope's default view draws them as a timeline, so a program that
# runs one path, then another, then the first again must show so.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/monitor/export-lib.sh"
need perf_event
[ -n "${PYTHON3:-}" ] || skip "no python3"
"$PYTHON3" -c 'import jsonschema' 2>/dev/null ||
	skip "no python3-jsonschema (apt-get install python3-jsonschema)"

record --speedscope out.json
"$PYTHON3" - out.json "$top_srcdir/tests/monitor/speedscope-schema.json" \
	"$samples" "$(summary_count cg_hot)" <<'PY' > check 2>&1 && ok "$(cat check)" || fail "$(cat check)"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
samples, hot = int(sys.argv[3]), int(sys.argv[4])
p = doc["profiles"][0]
frames = doc["shared"]["frames"]
assert p["type"] == "sampled" and p["unit"] == "nanoseconds", p["unit"]
assert len(p["samples"]) == len(p["weights"])
assert p["endValue"] == sum(p["weights"])
# root first: the leaf is the last index; main is below cg_hot
hot_w = sum(w for s, w in zip(p["samples"], p["weights"])
            if frames[s[-1]]["name"] == "cg_hot")
paths = {tuple(frames[i]["name"] for i in s[-4:]) for s in p["samples"]
         if frames[s[-1]]["name"] == "cg_hot"}
assert ("main", "cg_a", "cg_b", "cg_hot") in paths, paths
share, want = 100.0 * hot_w / p["endValue"], 100.0 * hot / samples
# weights are time, monitor counts samples: the shares agree closely
assert abs(share - want) < 3, (share, want)
print("schema-valid; cg_hot %.1f%% of the time, %.1f%% of monitor's samples"
      % (share, want))
PY

# cg-helper phases: 30% of its CPU time main -> cg_c, then 40% main ->
# cg_a -> cg_b, then 30% cg_c again.  Written most counted first, all of
# cg_c's samples came before all of cg_a's.
"$MONITOR" --call-graph $mode -u -F 997 --speedscope ph.json \
	-- "$T/cg-helper-fp" phases 1500 > /dev/null 2> ph.err ||
	fail "monitor phases: $(cat ph.err)"
"$PYTHON3" - ph.json "$top_srcdir/tests/monitor/speedscope-schema.json" <<'PY' > phases 2>&1 && ok "$(cat phases)" || fail "$(cat phases)"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
p, frames = doc["profiles"][0], doc["shared"]["frames"]
total = float(p["endValue"])
assert total == sum(p["weights"]) and total > 0
# where each path's time lies on the timeline, in fifths of it
fifths = {"a": [0.0] * 5, "c": [0.0] * 5}
at = 0.0
for s, w in zip(p["samples"], p["weights"]):
    names = {frames[i]["name"] for i in s}
    kind = "a" if "cg_b" in names else "c" if "cg_c" in names else None
    if kind:
        # the sample's weight spread over the fifths it covers
        lo, hi = at / total, (at + w) / total
        for k in range(5):
            fifths[kind][k] += max(0.0, min(hi, (k + 1) / 5.0) - max(lo, k / 5.0)) * 5
    at += w
a, c = fifths["a"], fifths["c"]
msg = "cg_a's share of each fifth %s, cg_c's %s" % (
    " ".join("%.2f" % v for v in a), " ".join("%.2f" % v for v in c))
# first and last fifths: cg_c; the middle one: cg_a
assert c[0] > 0.8 and c[4] > 0.8 and a[2] > 0.8, msg
print("in time order: " + msg)
PY
done_testing
