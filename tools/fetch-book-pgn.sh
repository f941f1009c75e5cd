#!/usr/bin/env bash
# Fetches book_1.02.pgn (145,716 public-domain master games) from Debian's gnuchess-book
# *source* package into the given folder (default: data/). The machine's own apt sources are
# not touched: a private sources list with a deb-src line for the same mirror is used for this
# one call. Prints the path of the PGN on its last line.
set -euo pipefail
dest="${1:-data}"
mkdir -p "$dest"
out="$dest/book_1.02.pgn"
if [ -s "$out" ]; then
    echo "$out"
    exit 0
fi
command -v apt-get >/dev/null || { echo "apt-get not found: fetch book_1.02.pgn by hand into $dest" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The mirror and suite the machine already uses for binary packages. (`|| true`: a sources
# glob that matches nothing makes grep fail, which pipefail would turn into an exit.)
mirror="$(grep -rhoE '^(deb |URIs:) *[^ ]*https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
    | grep -oE 'https?://[^ ]+' | grep -v -e security -e google -e nodesource | head -n1 || true)"
mirror="${mirror:-http://deb.debian.org/debian}"
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
mkdir -p "$work/lists/partial" "$work/src"
echo "deb-src $mirror $codename main" > "$work/sources.list"
opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=0")
echo "fetching the gnuchess-book source from $mirror ($codename)" >&2
apt-get "${opts[@]}" update -qq >&2
# Only the upstream tarball is needed: the Debian diff may be gone from the mirror (404), and
# apt-get then fails after downloading the tarball.
(cd "$work/src" && apt-get "${opts[@]}" source --download-only gnuchess-book >&2 || true)
tarball="$(ls "$work"/src/gnuchess-book_*.orig.tar.* | head -n1)"
pgn="$(tar -tf "$tarball" | grep -E 'book_1\.02\.pgn$' | head -n1)"
tar -xOf "$tarball" "$pgn" > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
