#!/bin/sh
# Counts validation diagnostics per severity and rule over folders of Alamo
# objects (.alo: models and particle systems), one JSON summary per folder:
#   sh tools/rule_counts.sh build/ferry ../shared/corpus/alamo/ufocp ../shared/corpus/alamo/icw
# files: validated; invalid: exit-1 files; read_errors: files that did not read.
# Needs jq.
F=$1
shift
for d in "$@"; do
  find "$d" -type f -iname '*.alo' -print0 | sort -z | xargs -0 -n 50 "$F" validate --json 2>/dev/null |
    jq -s --arg d "$d" '[.[][]] as $a | {folder: $d, files: ($a | length),
      invalid: ([$a[] | select(.valid | not)] | length),
      read_errors: [$a[] | select(.read_error) | .file],
      counts: ([$a[] | ((.errors // []) + (.warnings // []))[] | "\(.severity) \(.rule)"]
               | group_by(.) | map({(.[0]): length}) | add)}'
done
