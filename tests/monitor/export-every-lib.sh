# export-every-lib.sh - sourced by the --export-every tests of monitor
# and kerneltop: the checks of a run's snapshots against its one-shot
# export, which saw the same samples.

# pprof_times FILE...: "NAME TIME_NANOS DURATION_NANOS SAMPLES" per
# gzipped profile.proto (fields 9 and 10; SAMPLES: the sum of each
# sample's first value), read with no protobuf library.
pprof_times() {
	"$PYTHON3" - "$@" <<'PY'
import gzip, os, sys

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i

def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise SystemExit("bad wire type %d" % wt)
        yield f, wt, v

for path in sys.argv[1:]:
    t = d = n = 0
    for f, wt, v in fields(gzip.open(path).read()):
        if f == 9:
            t = v
        elif f == 10:
            d = v
        elif f == 2:	# a Sample: its values, field 2, packed or not
            vals = []
            for sf, swt, sv in fields(v):
                if sf == 2 and swt == 2:
                    j = 0
                    while j < len(sv):
                        x, j = varint(sv, j)
                        vals.append(x)
                elif sf == 2:
                    vals.append(sv)
            n += vals[0] if vals else 0
    print(os.path.basename(path), t, d, n)
PY
}

# folded_sum FILE...: the stacks of folded files, each once with the sum
# of its counts, sorted.
folded_sum() {
	cat "$@" | awk '{ n = $NF; sub(/ [0-9]+$/, ""); c[$0] += n }
		END { for (s in c) print s " " c[s] }' | sort
}

# every_check DIR ONESHOT.folded MIN START_NS END_NS SECS: DIR holds at
# least MIN snapshots of the run, whose folded ones add up stack by stack
# to ONESHOT; where pprof ones are there too, one per folded one, of the
# same start, their intervals tile the run, from about START_NS (the
# wall clock before the tool started) to END_NS (after it ended), each
# about SECS long but the last, and their samples add up to ONESHOT's.
every_check() {
	local dir=$1 one=$2 min=$3 t0=$4 t1=$5 secs=$6 n
	n=$(ls "$dir" | grep -c '^profile-[0-9]\{8\}T[0-9]\{6\}\.[0-9]\{3\}Z\.folded$')
	[ "$n" -ge "$min" ] && ok "$n folded snapshots (>= $min)" ||
		fail "$n folded snapshots, want >= $min: $(ls "$dir")"
	folded_sum "$dir"/*.folded > sum.snap
	folded_sum "$one" > sum.one
	if [ -s sum.one ] && cmp -s sum.snap sum.one; then
		ok "the snapshots add up to the one-shot export," \
		   "$(wc -l < sum.one) stacks, $(awk '{ s += $NF } END { printf "%.0f", s }' sum.one) samples"
	else
		fail "the snapshots do not add up: $(diff sum.snap sum.one | head -5)"
	fi
	ls "$dir"/*.pb.gz > /dev/null 2>&1 || return 0
	pprof_times "$dir"/*.pb.gz | sort > times ||
		{ fail "cannot read the pprof snapshots"; return; }
	[ "$(ls "$dir"/*.pb.gz | sed 's/\.pb\.gz$//' | xargs -n1 basename)" = \
	  "$(ls "$dir"/*.folded | sed 's/\.folded$//' | xargs -n1 basename)" ] &&
		ok "a pprof snapshot for each folded one, of the same start" ||
		fail "pprof and folded snapshots differ: $(ls "$dir")"
	# names: the start in UTC to the millisecond, as time_nanos says
	while read -r name t d s; do
		want=$(TZ=UTC date -d "@$((t / 1000000000))" +%Y%m%dT%H%M%S)
		want=profile-$want.$(printf %03d $((t / 1000000 % 1000)))Z.pb.gz
		[ "$name" = "$want" ] || fail "$name: time_nanos $t says $want"
	done < times
	# in python: nanoseconds since the epoch are past awk's doubles
	"$PYTHON3" - times "$t0" "$t1" "$secs" \
	    "$(awk '{ s += $NF } END { printf "%.0f", s }' sum.one)" <<'PY' > tiling ||
import sys
t0, t1, total = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[5])
per, tol = float(sys.argv[4]) * 1e9, 0.5
rows = [[int(x) for x in l.split()[1:]] for l in open(sys.argv[1])]
bad = []
# the first starts as the tool does (its setup before the counters
# start: under a second)
if not t0 <= rows[0][0] <= t0 + 1e9:
    bad.append("first start %.3f s after launch" % ((rows[0][0] - t0) / 1e9))
for i in range(1, len(rows)):
    if rows[i][0] != rows[i - 1][0] + rows[i - 1][1]:
        bad.append("interval %d starts %d ns off" %
                   (i + 1, rows[i][0] - rows[i - 1][0] - rows[i - 1][1]))
# each a period long, but the last, cut short.  A loaded machine runs
# the tool late: a snapshot up to a second late is taken as on time, and
# the one after a late one may be short (the schedule catches up).
late = 1e9
for i, (t, d, n) in enumerate(rows):
    after_late = i > 0 and rows[i - 1][1] > (1 + tol) * per
    if d > (1 + tol) * per + late or \
       (i < len(rows) - 1 and not after_late and d < (1 - tol) * per):
        bad.append("interval %d lasts %.3f s" % (i + 1, d / 1e9))
end = rows[-1][0] + rows[-1][1]
if not t0 <= end <= t1:
    bad.append("the last ends %.3f s before exit" % ((t1 - end) / 1e9))
if sum(r[2] for r in rows) != total:
    bad.append("pprof samples %d, one-shot %d" % (sum(r[2] for r in rows), total))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
		{ fail "pprof intervals: $(cat tiling)"; return; }
	ok "pprof time_nanos/duration_nanos tile the run: $(wc -l < times) intervals," \
	   "$(awk '{ s += $4 } END { printf "%.0f", s }' times) samples"
}

# keep_check DIR N: DIR holds N snapshots per format written (folded,
# pprof where built), and what it held besides snapshots.
keep_check() {
	local dir=$1 keep=$2 ext n
	for ext in folded pb.gz; do
		[ "$ext" = pb.gz ] && ! ls "$dir"/*.pb.gz > /dev/null 2>&1 &&
			continue
		n=$(find "$dir" -maxdepth 1 -type f -name "profile-*Z.$ext" | wc -l)
		[ "$n" -eq "$keep" ] && ok "--export-keep $keep: $n .$ext files" ||
			fail "--export-keep $keep: $n .$ext files: $(ls "$dir")"
	done
}
