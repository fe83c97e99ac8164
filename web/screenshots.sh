#!/usr/bin/env bash
# The README's pictures of the page: each mode in headless Chromium (`chromium --headless
# --screenshot`), served from web/dist/ by a local static server. Usage: web/screenshots.sh
# [OUT_DIR] (default docs/), after web/build.sh.
set -euo pipefail
cd "$(dirname "$0")"
out=$(cd "${1:-../docs}" && pwd)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill "$server"' EXIT
sleep 1
base="http://127.0.0.1:$port/index.html"
# The analyse picture's position: the fifth of the browser test's table (an O, next T).
board=$(awk '!/^#/ && NF { n++ } n == 5 { print $6; exit }' test/positions.txt)
hex=$(python3 -c "import sys; b = sys.argv[1]; print(''.join('%x' % sum(8 >> k for k in range(4) if b[i + k] != '.') for i in range(0, 200, 4)))" "$board")
shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,640 \
    --virtual-time-budget="$2" --screenshot="$out/$1" "$3" 2>/dev/null
  echo "web/screenshots.sh: $out/$1"
}
shot web-watch.png 3000 "$base?mode=watch&level=18&profile=30hz&seed=5&ahead=150&still=1"
shot web-analyse.png 3000 "$base#analyse&b=$hex&p=O&n=T&l=18&ln=12&pr=human"
shot web-play.png 6000 "$base?mode=play&level=9&seed=3&assist=1"
