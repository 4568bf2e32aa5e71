# lib-offcpu.sh - what the off-CPU tests of kerneltop and monitor share,
# sourced after tests/test-subr.sh: the helper's truth and the shares of
# a wall-clock folded export (tests/helpers/offcpu's split workload).

OFFCPU_HELPER="$helpers/offcpu"

# offcpu_shares FOLDED: "W OFF ONSPIN" of a wall-clock export: waits_here's
# share of waits_here + spins_here, the off-CPU share of everything under
# them, and spins_here's share of their on-CPU time (stacks without the
# [off-cpu] leaf), in %; "-1 -1 -1" when they are not there.
offcpu_shares() {
	awk '{ w = $NF; off = $0 ~ /(^|;)\[off-cpu\] [0-9]+$/
	       wt = $0 ~ /;waits_here[; ]/; sp = $0 ~ /;spins_here[; ]/
	       if (!wt && !sp) next
	       if (wt) W += w; else S += w
	       if (off) O += w; else { on += w; if (sp) onS += w } }
	     END { if (W + S == 0 || on == 0) { print "-1 -1 -1"; exit }
		   printf "%.1f %.1f %.1f\n", 100 * W / (W + S),
			  100 * O / (W + S), 100 * onS / on }' "$1"
}

# offcpu_truth FILE: "W OFF" the helper measured (its "truth" line in
# FILE): waits_here's share of its wall time, and its time off the CPU
# (wall - CPU time), in %.
offcpu_truth() {
	awk '/^truth waits_ms/ { t = $3 + $5
	     printf "%.1f %.1f\n", 100 * $3 / t, 100 * (t - $7) / t }' "$1"
}

# near A B PTS: A is a figure (>= 0) and |A - B| <= PTS.
near() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b
		exit !(a >= 0 && (d < 0 ? -d : d) <= p) }'
}
