/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export-svg.c - a flame graph as one SVG file: the root at the bottom,
 * each function a box as wide as its share of the samples, its callees
 * stacked above it in name order.  Hovering shows a box's <title>
 * (function, DSO, samples or time, share); clicking zooms into it; "Search"
 * highlights the functions matching a regular expression and says what
 * share of the samples they hold (from each box's count, a nested match
 * counted once; boxes narrower than MIN_W are left out of the file, and
 * so of the search).  User code is red, the kernel orange, JIT code
 * green, unresolved frames grey, as FlameGraph's --color=java marks
 * them, in bands of hue that never overlap.
 * Everything from the target (names, paths) goes through esc_xml().
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/hashtab.h"
#include "profile/export-internal.h"

#define WIDTH 1200
#define PAD 10			/* left and right */
#define FRAME_H 16
#define TOP 60			/* title, subtitle, buttons */
#define BOTTOM 40		/* the details line and the legend */
#define FONT 12
#define CHAR_W 7.0		/* average glyph width at FONT, monospace */
#define MIN_W 0.1		/* boxes narrower than this are left out */

enum { PAL_USER, PAL_KERNEL, PAL_JIT, PAL_UNRESOLVED, PAL_OFFCPU, PAL_MAX,
       PAL_ROOT = PAL_MAX };

/*
 * Each class its own band of hues, so that no user box can pass for a
 * kernel one: a box's hue, saturation and lightness are base + span *
 * (a hash of its name / 255), in degrees and percent.  The hue bands
 * are disjoint (red, orange, green, blue for off-CPU time; grey has no
 * hue).
 */
static const struct {
	const char *legend;
	int base[3], span[3];	/* hue, saturation, lightness */
} palette[PAL_MAX + 1] = {
	[PAL_USER] = { "user", { 352, 70, 52 }, { 14, 20, 12 } },
	[PAL_KERNEL] = { "kernel", { 28, 85, 50 }, { 14, 15, 12 } },
	[PAL_JIT] = { "JIT", { 95, 50, 42 }, { 40, 20, 12 } },
	[PAL_UNRESOLVED] = { "unresolved", { 0, 0, 62 }, { 0, 0, 14 } },
	[PAL_OFFCPU] = { "off-CPU", { 215, 65, 55 }, { 0, 0, 0 } },
	[PAL_ROOT] = { "all", { 228, 25, 80 }, { 0, 0, 0 } },
};

static const char *const pal_class[PAL_MAX + 1] = {
	[PAL_USER] = "user", [PAL_KERNEL] = "kernel", [PAL_JIT] = "jit",
	[PAL_UNRESOLVED] = "unresolved", [PAL_OFFCPU] = "offcpu",
	[PAL_ROOT] = "root",
};

static int pal_of(const struct stk_func *fn)
{
	if (!fn->mode)
		return PAL_ROOT;
	if (export_func_offcpu(fn))
		return PAL_OFFCPU;
	if (!fn->resolved)
		return PAL_UNRESOLVED;
	if (fn->mode == 'k' || fn->mode == 'h')
		return PAL_KERNEL;
	return fn->jit ? PAL_JIT : PAL_USER;
}

/* One channel of HSL to RGB: p, q from S and L, t the hue shifted. */
static double hsl_channel(double p, double q, double t)
{
	if (t < 0)
		t += 1;
	if (t > 1)
		t -= 1;
	if (t < 1.0 / 6)
		return p + (q - p) * 6 * t;
	if (t < 1.0 / 2)
		return q;
	if (t < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - t) * 6;
	return p;
}

/* HSL (degrees, percent) as "rgb(r,g,b)": SVG 1.1 knows no hsl(). */
static void put_hsl(FILE *f, int hue, int sat, int light)
{
	double h = (double)((hue % 360 + 360) % 360) / 360.0;
	double s = sat / 100.0, l = light / 100.0;
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;

	fprintf(f, "rgb(%d,%d,%d)",
		(int)(255 * hsl_channel(p, q, h + 1.0 / 3) + 0.5),
		(int)(255 * hsl_channel(p, q, h) + 0.5),
		(int)(255 * hsl_channel(p, q, h - 1.0 / 3) + 0.5));
}

/* The fill of a box: its palette, varied by the name so that
   neighbours differ and the same function has the same colour. */
static void put_fill(FILE *f, const struct stk_func *fn)
{
	int p = pal_of(fn), c[3], i;
	size_t h = hash_str(fn->name);

	for (i = 0; i < 3; i++, h >>= 8)
		c[i] = palette[p].base[i] + palette[p].span[i] * (int)(h & 255) / 255;
	put_hsl(f, c[0], c[1], c[2]);
}

/* The SVG's scripts: zoom, search, details.  Fixed text, no escaping. */
static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"'use strict';\n"
"var W = " "0" ", svg, det, mat, sbtn, zoomed = null;\n"
"function fnOf(g) { return g.getAttribute('data-n'); }\n"
"function init(evt) {\n"
"  svg = document.documentElement; W = +svg.getAttribute('data-w');\n"
"  det = document.getElementById('details');\n"
"  mat = document.getElementById('matched');\n"
"  sbtn = document.getElementById('search');\n"
"  var fs = document.querySelectorAll('g.f');\n"
"  for (var i = 0; i < fs.length; i++) {\n"
"    fs[i].addEventListener('mouseover', function(e) {\n"
"      det.textContent = this.querySelector('title').textContent; });\n"
"    fs[i].addEventListener('mouseout', function(e) { det.textContent = ' '; });\n"
"    fs[i].addEventListener('click', function(e) { zoom(this); });\n"
"  }\n"
"  fit();\n"
"  /* file.svg#s=REGEX opens with a search done */\n"
"  var h = decodeURIComponent(location.hash || '');\n"
"  if (h.substr(0, 3) == '#s=') search(h.substr(3));\n"
"}\n"
"function fit() {\n"
"  var fs = document.querySelectorAll('g.f');\n"
"  for (var i = 0; i < fs.length; i++) {\n"
"    var r = fs[i].querySelector('rect'), t = fs[i].querySelector('text');\n"
"    var w = +r.getAttribute('width'), n = fnOf(fs[i]);\n"
"    var room = Math.floor((w - 6) / " "7" ");\n"
"    t.setAttribute('x', +r.getAttribute('x') + 3);\n"
"    t.textContent = room < 3 ? '' : n.length <= room ? n : n.substr(0, room - 2) + '..';\n"
"  }\n"
"}\n"
"function zoom(g) {\n"
"  var r = g.querySelector('rect'), x0 = +r.getAttribute('data-x'),\n"
"      w0 = +r.getAttribute('data-w'), y0 = +r.getAttribute('y');\n"
"  var s = (W - 2 * " "10" ") / w0, fs = document.querySelectorAll('g.f');\n"
"  zoomed = g;\n"
"  document.getElementById('unzoom').style.opacity = 1;\n"
"  for (var i = 0; i < fs.length; i++) {\n"
"    var q = fs[i].querySelector('rect'), x = +q.getAttribute('data-x'),\n"
"        w = +q.getAttribute('data-w'), y = +q.getAttribute('y');\n"
"    var inside = x >= x0 - 1e-6 && x + w <= x0 + w0 + 1e-6;\n"
"    if (y > y0 && x <= x0 + 1e-6 && x + w >= x0 + w0 - 1e-6) {\n"
"      q.setAttribute('x', " "10" "); q.setAttribute('width', W - 2 * " "10" ");\n"
"      fs[i].style.display = ''; fs[i].style.opacity = 0.5;\n"
"    } else if (y <= y0 && inside) {\n"
"      q.setAttribute('x', " "10" " + (x - x0) * s); q.setAttribute('width', w * s);\n"
"      fs[i].style.display = ''; fs[i].style.opacity = 1;\n"
"    } else {\n"
"      fs[i].style.display = 'none';\n"
"    }\n"
"  }\n"
"  fit();\n"
"}\n"
"function unzoom() {\n"
"  var fs = document.querySelectorAll('g.f');\n"
"  for (var i = 0; i < fs.length; i++) {\n"
"    var q = fs[i].querySelector('rect');\n"
"    q.setAttribute('x', q.getAttribute('data-x'));\n"
"    q.setAttribute('width', q.getAttribute('data-w'));\n"
"    fs[i].style.display = ''; fs[i].style.opacity = 1;\n"
"  }\n"
"  zoomed = null;\n"
"  document.getElementById('unzoom').style.opacity = 0;\n"
"  fit();\n"
"}\n"
"function search(re) {\n"
"  if (re === undefined) re = prompt('Search for (a regular expression)', '');\n"
"  var fs = document.querySelectorAll('g.f'), total = +svg.getAttribute('data-total');\n"
"  var open = [], hit = 0, rx;\n"
"  try { rx = re ? new RegExp(re) : null; } catch (e) { alert(e); return; }\n"
"  /* boxes come depth first: the matched boxes still open (depth below\n"
"     this one's) are its matched ancestors; count only the outermost,\n"
"     from the sample counts, not from rounded positions */\n"
"  for (var i = 0; i < fs.length; i++) {\n"
"    var r = fs[i].querySelector('rect'), d = +fs[i].getAttribute('data-d');\n"
"    var on = rx && d > 0 && rx.test(fnOf(fs[i]));\n"
"    r.setAttribute('fill', on ? 'rgb(230,0,230)' : r.getAttribute('data-fill'));\n"
"    while (open.length && open[open.length - 1] >= d) open.pop();\n"
"    if (!on) continue;\n"
"    if (!open.length) hit += +fs[i].getAttribute('data-s');\n"
"    open.push(d);\n"
"  }\n"
"  sbtn.textContent = rx ? 'Reset search' : 'Search';\n"
"  mat.textContent = rx ? 'Matched: ' + (total ? (100 * hit / total).toFixed(2) : '0') + '%' : ' ';\n"
"}\n"
"function searchButton() { if (sbtn.textContent == 'Search') search(); else search(''); }\n"
"]]></script>\n";

/* n samples, or n ns as a time where the stacks count time (measure). */
static void put_amount(FILE *f, uint64_t n, const char *measure)
{
	if (measure)
		export_put_ns(f, n);
	else
		fprintf(f, "%" PRIu64 " samples", n);
}

static void put_header(FILE *f, const struct export_meta *m,
		       const char *measure, uint64_t total,
		       int height)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"data-w=\"%d\" data-total=\"%" PRIu64 "\" onload=\"init(evt)\">\n",
		WIDTH, height, WIDTH, height, WIDTH, total);
	fprintf(f, "<style type=\"text/css\">\n"
		"text { font-family: monospace; font-size: %dpx; fill: rgb(0,0,0); }\n"
		"g.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; cursor: pointer; }\n"
		"text.b { cursor: pointer; fill: rgb(0,0,160); }\n"
		"</style>\n", FONT);
	fputs(script, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"rgb(248,248,240)\"/>\n", WIDTH, height);
	fprintf(f, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" "
		"style=\"font-size:17px\">Flame graph: ", WIDTH / 2);
	if (measure)
		fprintf(f, "%s time%s", measure[0] == 'o' ? "off-CPU" :
			"wall-clock", measure[0] == 'o' ? "" : " (on-CPU and off-CPU)");
	else
		export_put_esc(f, m->event ? m->event : "samples", esc_xml);
	if (m->target) {
		fputs(" on ", f);
		export_put_esc(f, m->target, esc_xml);
	}
	fprintf(f, "</text>\n<text x=\"%d\" y=\"42\" text-anchor=\"middle\">",
		WIDTH / 2);
	put_amount(f, total, measure);
	fputs("; wider is more, above calls below; click to zoom</text>\n", f);
	fprintf(f, "<text id=\"unzoom\" class=\"b\" x=\"%d\" y=\"24\" "
		"style=\"opacity:0\" onclick=\"unzoom()\">Reset zoom</text>\n",
		PAD);
	fprintf(f, "<text id=\"search\" class=\"b\" x=\"%d\" y=\"24\" "
		"text-anchor=\"end\" onclick=\"searchButton()\">Search</text>\n",
		WIDTH - PAD);
	fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\"> </text>\n", WIDTH - PAD, height - 24);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", PAD,
		height - 24);
}

static void put_legend(FILE *f, int height)
{
	int i, x = PAD;

	for (i = 0; i < PAL_MAX; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"", x, height - 16);
		put_hsl(f, palette[i].base[0] + palette[i].span[0] / 2,
			palette[i].base[1] + palette[i].span[1] / 2,
			palette[i].base[2] + palette[i].span[2] / 2);
		fprintf(f, "\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x + 16,
			height - 6, palette[i].legend);
		x += 24 + 8 * (int)strlen(palette[i].legend);
	}
}

/* One box: <g> with its samples, depth and colour class, its title, the
   rect (with its unzoomed geometry and colour kept for the script) and a
   text the script fits.  Boxes come in depth-first order from the root:
   the search finds a box's ancestors from the depths alone. */
static int put_box(FILE *f, const struct stk_func *fn, const struct stk_node *nd,
		   double x, double w, int y, uint64_t total,
		   const char *measure)
{
	fputs("<g class=\"f\" data-n=\"", f);
	if (export_put_esc(f, fn->name, esc_xml))
		return -1;
	fprintf(f, "\" data-s=\"%" PRIu64 "\" data-d=\"%" PRIu32 "\" "
		"data-c=\"%s\"><title>", nd->total, nd->depth,
		pal_class[pal_of(fn)]);
	export_put_esc(f, fn->name, esc_xml);
	if (*fn->dso) {
		fputs(" (", f);
		export_put_esc(f, fn->dso, esc_xml);
		fputc(')', f);
	}
	fprintf(f, "%s: ", fn->mode == 'k' ? " [kernel]" : "");
	put_amount(f, nd->total, measure);
	fprintf(f, ", %.2f%%",
		total ? 100.0 * (double)nd->total / (double)total : 0.0);
	if (nd->self) {
		fputs(", ", f);
		if (measure)
			export_put_ns(f, nd->self);
		else
			fprintf(f, "%" PRIu64, nd->self);
		fputs(" in itself", f);
	}
	fprintf(f, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		"height=\"%d\" rx=\"2\" data-x=\"%.2f\" data-w=\"%.2f\" fill=\"",
		x, y, w, FRAME_H - 1, x, w);
	put_fill(f, fn);
	fputs("\" data-fill=\"", f);
	put_fill(f, fn);
	fprintf(f, "\"/><text x=\"%.2f\" y=\"%d\"></text></g>\n", x + 3,
		y + FRAME_H - 4);
	return 0;
}

int export_svg(FILE *f, struct stacks *s, const struct export_meta *m)
{
	const struct stk_node *nd;
	double *xs, scale;
	uint32_t at, depth = 0;
	uint64_t total;
	size_t n, i;
	int height, rc = 0;
	const char *measure;

	measure = export_ns_measure(s, m);	/* before the tree: it sorts */
	nd = stacks_tree(s, STK_TREE_ROOT, 0, &n);
	if (!nd)
		return -1;
	for (i = 1; i < n; i++)
		if (nd[i].depth > depth)
			depth = nd[i].depth;
	total = nd[0].total;
	height = TOP + (int)(depth + 1) * FRAME_H + BOTTOM;
	xs = calloc(n, sizeof(*xs));
	if (!xs)
		return -1;
	put_header(f, m, measure, total, height);
	scale = total ? (WIDTH - 2.0 * PAD) / (double)total : 0;
	/* depth first from the root ("all"): a node's x is its parent's
	   plus its elder siblings' widths, set as the walk passes them */
	xs[0] = PAD;
	for (at = 0; at != STK_NONE && !rc; at = stacks_tree_next(nd, at)) {
		static const struct stk_func all = { .name = "all", .dso = "",
						     .resolved = true };
		double w = (double)nd[at].total * scale;

		if (nd[at].child != STK_NONE)
			xs[nd[at].child] = xs[at];
		if (nd[at].next != STK_NONE)
			xs[nd[at].next] = xs[at] + w;
		if (w < MIN_W)
			continue;
		rc = put_box(f, at ? stacks_func(s, nd[at].func) : &all, &nd[at],
			     xs[at], w, height - BOTTOM -
					(int)(nd[at].depth + 1) * FRAME_H, total,
			     measure);
	}
	put_legend(f, height);
	fputs("</svg>\n", f);
	free(xs);
	return rc;
}
