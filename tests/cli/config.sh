#!/usr/bin/env bash
# ferry info/dump/validate/convert on configs: a text material and the raP
# of "class A { x = 1; };" written here byte by byte (docs/formats/config.md,
# the same bytes as tests/test_config.c's), then the corpus's rvmats and the
# hemtt pairs when ../shared is there.
set -u
FERRY=$1
SRC=$2
SHARED=${3:-}
. "$SRC/tests/cli/lib.bash"

cat >"$tmp/m.rvmat" <<'RVMAT'
// a material
#define _ARMA_
ambient[] = {1,1,1,1};
diffuse[] = {0.5,0.5,0.5,1};
specularPower = 40;
PixelShaderID = "Super";
VertexShaderID = "Super";
class Stage1 { texture = "a\data\x_nohq.paa"; uvSource = "tex"; };
class Stage2 { texture = "#(argb,8,8,3)color(0.5,0.5,0.5,1,DT)"; texGen = 1; };
class Stage5 { texture = "a\data\x_smdi.paa"; };
RVMAT
printf '\x00raP\x00\x00\x00\x00\x08\x00\x00\x00\x2b\x00\x00\x00\x00\x01\x00A\x00\x1d\x00\x00\x00\x2b\x00\x00\x00\x00\x01\x01\x02x\x00\x01\x00\x00\x00\x2b\x00\x00\x00\x00\x00\x00\x00' >"$tmp/a.bin"

expect 0 "info text rvmat" -- "$FERRY" info "$tmp/m.rvmat"
check "info: form and counts" grep -q "config (text), .* 4 classes, 13 entries" "$tmp/out"
check "info: normal map" grep -q "normal map: Stage1" "$tmp/out"
check "info: detail stage" grep -q 'Stage2: #(argb,8,8,3)color(0.5,0.5,0.5,1,DT) (detail, texGen 1)' "$tmp/out"
expect 0 "info --json" -- "$FERRY" info --json "$tmp/m.rvmat"
check "info --json: normal stage" grep -q '"normal_stage": "Stage1"' "$tmp/out"
check "info --json: specular stage" grep -q '"specular_stage": "Stage5"' "$tmp/out"
expect 0 "validate" -- "$FERRY" validate "$tmp/m.rvmat"
check "validate: 0 errors" grep -q "0 errors" "$tmp/out"
expect 0 "rapify" -- "$FERRY" convert "$tmp/m.rvmat" "$tmp/m.bin.rvmat"
check "rapify: raP" sh -c "head -c 4 '$tmp/m.bin.rvmat' | od -c | grep -q 'r   a   P'"
expect 0 "raP rewrite" -- "$FERRY" convert "$tmp/m.bin.rvmat" "$tmp/m2.rvmat"
check "raP rewrite: byte-identical" cmp -s "$tmp/m.bin.rvmat" "$tmp/m2.rvmat"
expect 0 "derapify" -- "$FERRY" convert "$tmp/m.bin.rvmat" "$tmp/m.cpp"
expect 0 "rapify the derapified" -- "$FERRY" convert "$tmp/m.cpp" "$tmp/m3.rvmat"
check "derapify + rapify: byte-identical" cmp -s "$tmp/m.bin.rvmat" "$tmp/m3.rvmat"

expect 0 "info raP" -- "$FERRY" info "$tmp/a.bin"
check "info raP: counts" grep -q "config (raP), 47 bytes, 2 classes, 2 entries" "$tmp/out"
expect 0 "dump raP" -- "$FERRY" dump "$tmp/a.bin"
check "dump: class" grep -q "^class A$" "$tmp/out"
check "dump: value" grep -q "^    x = 1;$" "$tmp/out"
expect 0 "dump --json" -- "$FERRY" dump --json "$tmp/a.bin"
check "dump --json: offsets" grep -q '"offset": 29' "$tmp/out"
expect 0 "text to raP" -- "$FERRY" convert "$tmp/a.bin" "$tmp/a.cpp"
expect 0 "and back" -- "$FERRY" convert "$tmp/a.cpp" "$tmp/a2.bin"
check "and back: the hand-made bytes" cmp -s "$tmp/a.bin" "$tmp/a2.bin"

head -c 35 "$tmp/a.bin" >"$tmp/cut.rvmat"
expect 1 "truncated raP" -- "$FERRY" info "$tmp/cut.rvmat"
check "truncated: located with its class" grep -q "offset 0x23 (35), at A" "$tmp/err"
printf 'class A {\n  x = "never;\n' >"$tmp/bad.rvmat"
expect 1 "bad text" -- "$FERRY" validate "$tmp/bad.rvmat"
check "bad text: line and column" grep -q "line 2 column 7" "$tmp/err"
printf '#include "x.hpp"\nclass A {};\n' >"$tmp/inc.cpp"
expect 1 "preprocessor" -- "$FERRY" info "$tmp/inc.cpp"
check "preprocessor: said" grep -q "ferry does not run the preprocessor" "$tmp/err"
expect 2 "option" -- "$FERRY" convert "$tmp/a.bin" "$tmp/x.cpp" --mip 1
expect 2 "an output of another kind" -- "$FERRY" convert "$tmp/a.bin" "$tmp/x.glb"
check "another kind: the outputs named" grep -q "outputs are raP (.rvmat" "$tmp/err"
expect 0 "convert --help" -- "$FERRY" convert --help
check "help names configs" grep -q "derapify" "$tmp/out"

A=$SHARED/corpus/odol/addons
if [ -n "$SHARED" ] && [ -d "$A" ]; then
  n=0
  while IFS= read -r f; do
    n=$((n + 1))
    expect 0 "validate $f" -- "$FERRY" validate "$f"
    if head -c 4 "$f" | grep -q raP; then
      expect 0 "rewrite $f" -- "$FERRY" convert "$f" "$tmp/r.rvmat"
      check "rewrite $f: byte-identical" cmp -s "$f" "$tmp/r.rvmat"
    fi
  done < <(find "$A" -iname '*.rvmat' | sort)
  check "37 rvmats" [ "$n" -ge 37 ]
  H=$SHARED/corpus/rapify/hemtt
  expect 0 "dump ace_main" -- "$FERRY" dump "$H/ace_main/expected.bin"
  check "dump ace_main: a class of the tree" grep -q "class acex_main: ace_main" "$tmp/out"
  expect 0 "rapify numbers" -- "$FERRY" convert "$H/numbers/source.hpp" "$tmp/numbers.bin"
  check "rapify numbers: cfgconvert's bytes" cmp -s "$H/numbers/cfgconvert.bin" "$tmp/numbers.bin"
else
  left_out "the corpus configs ($A is absent)"
fi
finish
