# bench-subr.sh - what the bench scripts share: sourced, never run.
# Figures come from /proc of the tool measured, so that a tool and perf
# are read the same way.

clk_tck=$(getconf CLK_TCK)
# ms_now: the wall clock in milliseconds
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }
# cpu_ticks PID: utime + stime of the whole process, in clock ticks
# (clk_tck a second); "died" once it is gone (a crash must show in the
# table, not stop the bench)
cpu_ticks() {
	sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | awk '{ print $12 + $13 }' | grep . || echo died
}
# hwm_kib PID: peak RSS (VmHWM), KiB, or "died"
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2> /dev/null | grep . || echo died; }
# median FILE COLUMN: of the rows that did not die; nan when none
median() {
	awk -v c="$2" '$1 != "died" { print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print NR == 0 ? "nan" : NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
