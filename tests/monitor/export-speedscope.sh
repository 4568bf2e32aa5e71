#!/bin/sh
# export-speedscope.sh - --speedscope valid against speedscope's
# published file-format schema (shipped in the speedscope npm package,
# dist/release/file-format-schema.json, 1.25.0; copied here), and its
# samples what monitor's summary says.
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
done_testing
