# perf script -F tid,event,ip,sym,dso,period of a {cpu-clock,page-faults}:S
# group (perf prints no member sample whose delta is 0): the page-faults
# per ms of row want ("SYM (DSO)") by monitor's rule -- only intervals
# whose previous sample, same thread, is in the same row -- and its 95%
# half width (the ratio estimator, t ~ 1.96).
function flush() { if (inc) { n++; xs[n] = x; ys[n] = y; sx += x; sy += y }
	inc = 0 }
$3 ~ /^cpu-clock/ { flush(); y = $2; x = 0; row = $5 " " $NF
	inc = prev[$1] == row && row == want; prev[$1] = row; next }
$3 ~ /^page-faults/ { x = $2 }
END { flush(); if (n < 10) { print "-"; exit } r = sx / sy
	for (i = 1; i <= n; i++) { d = xs[i] - r * ys[i]; s2 += d * d }
	s2 /= n - 1; se = sqrt(s2 / n) / (sy / n)
	printf "%.3f %.3f %d\n", r * 1e6, 1.96 * se * 1e6, n }
