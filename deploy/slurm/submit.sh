# Sourced (`.`) by sim.sh and tune.sh after they set `here` and `usage`: checks that TASKS and
# the run's folder were given, and finds the nestor binary the jobs run (NESTOR, else PATH).
[ $# -ge 2 ] || { echo "usage: $0 $usage" >&2; exit 2; }
nestor=${NESTOR:-$(command -v nestor || true)}
[ -x "$nestor" ] || { echo "set NESTOR to the nestor binary" >&2; exit 2; }
