#!/bin/sh
# Builds Kannel's opensmppbox (addons/opensmppbox, not packaged in Debian) against Debian's kannel-dev,
# in /tmp; copies no Kannel source into this repository. Prints the binary's path on its last line:
#
#   OPENSMPPBOX=$(sh bench/lib/build-opensmppbox.sh <kannel-source> | tail -1) npm run bench:smpp-server
#
# <kannel-source>: a Kannel source tree or a git directory of a Kannel mirror holding addons/opensmppbox
# (for example a clone of github.com/markjeee/kannel); default $KANNEL_SRC, else a clone of that mirror.
# Needs root for apt-get (kannel-dev, a compiler, autotools) unless they are installed already.
set -eu
SRC=${1:-${KANNEL_SRC:-}}
OUT=${OPENSMPPBOX_BUILD_DIR:-/tmp/opensmppbox-build}

if ! command -v gw-config >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
  apt-cache policy kannel-dev | grep -q 'Candidate: (none)' && { echo "kannel-dev is not in this machine's apt sources" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y kannel-dev build-essential >&2
fi
echo "kannel-dev: $(gw-config --version)" >&2

rm -rf "$OUT"; mkdir -p "$OUT"
if [ -z "$SRC" ]; then
  git clone --depth 1 https://github.com/markjeee/kannel "$OUT/kannel" >&2
  SRC="$OUT/kannel"
fi
if [ -d "$SRC/addons/opensmppbox" ]; then
  cp -R "$SRC/addons/opensmppbox" "$OUT/opensmppbox"
elif [ -f "$SRC/gw/opensmppbox.c" ]; then          # a tree of opensmppbox alone
  cp -R "$SRC" "$OUT/opensmppbox"
else                                               # a bare git directory
  mkdir -p "$OUT/opensmppbox"
  git --git-dir="$SRC" archive HEAD addons/opensmppbox | tar -x -C "$OUT" 
  mv "$OUT/addons/opensmppbox"/* "$OUT/opensmppbox/" && rm -rf "$OUT/addons"
fi

cd "$OUT/opensmppbox"
# configure finds Kannel through gw-config (kannel-dev); the generated configure is in the tree.
./configure --with-kannel-dir=/usr >&2 || { cat config.log | tail -40 >&2; exit 1; }
make >&2
BIN="$OUT/opensmppbox/gw/opensmppbox"
test -x "$BIN"
echo "$BIN"
