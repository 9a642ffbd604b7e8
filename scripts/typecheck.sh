#!/usr/bin/env bash
# Type-check each layer with the globals it may use: pcp-core and the worker without DOM or
# Node, the UI with the DOM, Node code and tests with Node.
set -euo pipefail
cd "$(dirname "$0")/.."
for p in core worker app node; do
  echo "tsc -p tsconfig.$p.json"
  npx tsc --noEmit -p "tsconfig.$p.json"
done
