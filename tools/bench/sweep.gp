# SPDX-License-Identifier: GPL-2.0-only
# The size sweep of tools/bench/verbs-vs-rxe.sh: ib_write_bw -a and
# ib_write_lat -a on rxe and mrc, from DIR/sweep-{bw,lat}-{rxe,mrc}.dat
# ("size value" rows), into DIR/sweep.png.
#   gnuplot -e "dir='build/bench'" tools/bench/sweep.gp
if (!exists("dir")) dir = "build/bench"
set terminal png size 1200,480 font ",10"
set output dir."/sweep.png"
set multiplot layout 1,2 title "rdma\\_rxe vs mrc, one TCG guest, veth (perftest -a)"
set logscale x 2
set format x "2^{%L}"
set xlabel "message size, bytes"
set grid
set key top left
set ylabel "ib\\_write\\_bw BW average, MiB/s"
plot dir."/sweep-bw-rxe.dat" using 1:2 with linespoints title "rxe", \
     dir."/sweep-bw-mrc.dat" using 1:2 with linespoints title "mrc"
set logscale y 10
set ylabel "ib\\_write\\_lat t\\_typical, usec"
plot dir."/sweep-lat-rxe.dat" using 1:2 with linespoints title "rxe", \
     dir."/sweep-lat-mrc.dat" using 1:2 with linespoints title "mrc"
unset multiplot
