#!/usr/bin/env bash
# ferry particles and ferry render on the bundled sample particle system
# (samples/alamo/p_walker_exhaust.alo, built by tools/sample_models.c), then
# on real effects of the corpus when ../shared is there.
set -u
FERRY=$1 SRC=$2 SHARED=$3
. "$(dirname "$0")/lib.bash"
sample="$SRC/samples/alamo/p_walker_exhaust.alo"
model="$SRC/samples/alamo/walker.alo"

# ---- usage ----
expect 0 "particles --help" -- "$FERRY" particles --help
check "particles --help names --seed" grep -q -- "--seed S" "$tmp/out"
expect 0 "render --help" -- "$FERRY" render --help
check "render --help names --fps" grep -q -- "--fps F" "$tmp/out"
for cmd in particles render; do
  expect_out "$tmp/own.txt" 0 "ferry $cmd --help" -- "$FERRY" "$cmd" --help
  expect 0 "ferry help $cmd" -- "$FERRY" help "$cmd"
  check "ferry help $cmd = ferry $cmd --help" same_output "$tmp/out" "$tmp/own.txt"
done
expect 0 "ferry help" -- "$FERRY" help
check "the overview lists particles and render" bash -c 'grep -q "^  particles " "$1" && grep -q "^  render " "$1"' _ "$tmp/out"
expect 0 "particles -- -x.alo" -- bash -c 'mkdir -p "$1/dd" && cp "$2" "$1/dd/-x.alo" && cd "$1/dd" && "$3" particles --time 1 -- -x.alo' _ "$tmp" "$sample" "$FERRY"
expect 2 "particles without --time" -- "$FERRY" particles "$sample"
expect 2 "particles --time negative" -- "$FERRY" particles "$sample" --time -1
expect 2 "particles --time nan" -- "$FERRY" particles "$sample" --time nan
expect 2 "particles --seed not a number" -- "$FERRY" particles "$sample" --time 1 --seed x
expect 2 "particles unknown option" -- "$FERRY" particles "$sample" --time 1 --bogus
expect 2 "particles two files" -- "$FERRY" particles "$sample" "$sample" --time 1
expect 2 "particles --ground not a number" -- "$FERRY" particles "$sample" --time 1 --ground x
expect 0 "particles --no-ground" -- "$FERRY" particles "$sample" --time 1 --no-ground
expect 0 "particles --ground 2" -- "$FERRY" particles "$sample" --time 1 --ground 2
expect 2 "render without output" -- "$FERRY" render "$sample"
expect 2 "render to .jpg" -- "$FERRY" render "$sample" "$tmp/x.jpg"
expect 2 "render gif without --fps" -- "$FERRY" render "$sample" "$tmp/x.gif" --duration 1
expect 2 "render png with --fps" -- "$FERRY" render "$sample" "$tmp/x.png" --duration 1 --fps 10
expect 2 "render bad --size" -- "$FERRY" render "$sample" "$tmp/x.png" --size 0x10
expect 2 "render --textures not a folder" -- "$FERRY" render "$sample" "$tmp/x.png" --textures "$tmp/none"
expect 1 "particles of a model" -- "$FERRY" particles "$model" --time 1
check "particles of a model: says so" grep -q "not a particle system" "$tmp/err"
expect 1 "particles of a missing file" -- "$FERRY" particles "$tmp/missing.alo" --time 1
# A model: the particle systems on its proxies (the walker's exhaust), its
# hidden proxy left out; a model without any is an error.
expect 0 "render of a model" -- "$FERRY" render "$model" "$tmp/m.png" --time 2 --size 64x64
check "render of a model: proxies only" grep -q "particle systems on proxies only" "$tmp/err"
check "render of a model: hidden proxy named" grep -q "proxy 'P_Sparks_Head' is hidden" "$tmp/err"
expect 1 "render of a model without particle proxies" -- "$FERRY" render "$SRC/samples/alamo/crate.alo" "$tmp/x.png"
check "render of a crate: says why" grep -q "no particle system on the model's proxies" "$tmp/err"

# ---- the state at a time ----
# Smoke: a stream of 24/s from 0 s, lifetimes 1.5 .. 2 s (lifetime 2,
# randomized 0.25). At 1.0 s, emissions k = 0..24 (k/24 <= 1): 25, none dead
# yet; at 1.2 s, k = 0..28: 29. Its death emitter (the flash, 6 per burst)
# has not fired before 1.5 s.
expect 0 "particles --json at 1.0" -- "$FERRY" particles "$sample" --time 1.0 --json
cp "$tmp/out" "$tmp/a.json"
check "json: shape" jq -e '(.time == 1.0) and (.emitters | length == 2) and (.emitters[0].index == 0)
  and (.emitters[0].name == "smoke") and (.emitters[1].name == "flash")
  and ([.emitters[0].particles[0] | keys[]] == ["age","color","frame","id","lifetime","position","rotation","size","velocity"])
  and (.emitters[0].particles[0].position | length == 3) and (.emitters[0].particles[0].color | length == 4)' "$tmp/a.json" >/dev/null
check "json: 25 smoke particles at 1.0 s" jq -e '.emitters[0].particles | length == 25' "$tmp/a.json" >/dev/null
check "json: no flash before 1.5 s" jq -e '.emitters[1].particles | length == 0' "$tmp/a.json" >/dev/null
check "json: ages and lifetimes" jq -e '[.emitters[0].particles[] | select(.age < 0 or .age > 1.0001 or .lifetime < 1.4999 or .lifetime > 2.0001)] | length == 0' "$tmp/a.json" >/dev/null
check "json: distinct ids" jq -e '[.emitters[].particles[].id] | (length == (unique | length))' "$tmp/a.json" >/dev/null
expect 0 "particles --json at 1.2" -- "$FERRY" particles "$sample" --time 1.2 --json
check "json: 29 smoke particles at 1.2 s" jq -e '.emitters[0].particles | length == 29' "$tmp/out" >/dev/null
# After the first deaths, flashes appear in sixes; their lifetimes are
# 0.25 .. 0.5 s (0.5, randomized 0.5), so those younger than 0.25 s are
# all alive: whole bursts.
expect 0 "particles --json at 2.2" -- "$FERRY" particles "$sample" --time 2.2 --json
check "json: flashes come in bursts of 6" jq -e '([.emitters[1].particles[] | select(.age < 0.25)] | length) as $n | $n > 0 and $n % 6 == 0' "$tmp/out" >/dev/null
check "json: flashes live 0.25 .. 0.5 s" jq -e '[.emitters[1].particles[] | select(.lifetime < 0.2499 or .lifetime > 0.5001)] | length == 0' "$tmp/out" >/dev/null
# The same seed: the same output; another: other particles.
expect 0 "particles again" -- "$FERRY" particles "$sample" --time 1.0 --json
check "same seed, same output" same_output "$tmp/out" "$tmp/a.json"
expect 0 "particles seed 7" -- "$FERRY" particles "$sample" --time 1.0 --json --seed 7
check "another seed, other positions" bash -c "! cmp -s '$tmp/out' '$tmp/a.json'"
check "another seed, same count" jq -e '.emitters[0].particles | length == 25' "$tmp/out" >/dev/null
expect 0 "particles text" -- "$FERRY" particles "$sample" --time 1.0
check "text: a line per emitter" grep -q "smoke .* 25 live" "$tmp/out"

# ---- pictures ----
# Pixels of a PNG that differ from the background: render's grey
# checkerboard, cells of max(4, width / 16) pixels, 0.32 and 0.48 (82, 122).
lit() {
  python3 -c 'import sys,zlib,struct
d=open(sys.argv[1],"rb").read(); i=8; idat=b""
while i < len(d):
    n,=struct.unpack(">I",d[i:i+4]); t=d[i+4:i+8]
    if t==b"IHDR": w,h,bd,ct=struct.unpack(">IIBB",d[i+8:i+18])
    if t==b"IDAT": idat+=d[i+8:i+8+n]
    i+=12+n
bpp={2:3,6:4}[ct]; raw=zlib.decompress(idat); stride=w*bpp; prev=bytearray(stride); lit=0; p=0
cell=max(4,w//16)
for y in range(h):
    f=raw[p]; row=bytearray(raw[p+1:p+1+stride]); p+=1+stride
    for x in range(stride):
        a=row[x-bpp] if x>=bpp else 0; b=prev[x]; c=prev[x-bpp] if x>=bpp else 0
        if f==1: row[x]=(row[x]+a)&255
        elif f==2: row[x]=(row[x]+b)&255
        elif f==3: row[x]=(row[x]+(a+b)//2)&255
        elif f==4:
            pa=abs(b-c); pb=abs(a-c); pc=abs(a+b-2*c)
            row[x]=(row[x]+(a if pa<=pb and pa<=pc else b if pb<=pc else c))&255
    for x in range(w):
        g=122 if (x//cell+y//cell)&1 else 82
        if abs(row[x*bpp]-g)>4 or abs(row[x*bpp+1]-g)>4 or abs(row[x*bpp+2]-g)>4: lit+=1
    prev=row
print(lit)' "$1"
}
# Frames of a GIF: its image descriptors, walking the blocks.
gif_frames() {
  python3 -c 'import sys
d=open(sys.argv[1],"rb").read(); assert d[:6] in (b"GIF87a",b"GIF89a")
i=13
if d[10]&0x80: i+=3*(2<<(d[10]&7))
n=0
while i < len(d):
    b=d[i]
    if b==0x3b: break
    if b==0x21:
        i+=2
        while d[i]: i+=d[i]+1
        i+=1
    elif b==0x2c:
        n+=1; flags=d[i+9]; i+=10
        if flags&0x80: i+=3*(2<<(flags&7))
        i+=1
        while d[i]: i+=d[i]+1
        i+=1
    else: raise SystemExit("bad block")
print(n)' "$1"
}
expect 0 "render png" -- "$FERRY" render "$sample" "$tmp/s.png" --time 1.5 --size 160x120
check "render png: written" test -s "$tmp/s.png"
check "render png: says what it drew" grep -q "1 frame 160x120" "$tmp/err"
check "render png: missing texture warned" grep -q "texture 'p_walker_smoke.tga' not found" "$tmp/err"
check "render png: particles visible" test "$(lit "$tmp/s.png")" -gt 50
expect 0 "render png before any particle" -- "$FERRY" render "$sample" "$tmp/e.png" --time 0 --size 64x64
check "render at 0: warned, background only" grep -q "no live particles" "$tmp/err"
check "render at 0: nothing but the checkerboard" test "$(lit "$tmp/e.png")" -eq 0
expect 0 "render gif" -- "$FERRY" render "$sample" "$tmp/s.gif" --duration 1.2 --fps 10 --time 0.5 --size 96x96
check "render gif: 12 frames" test "$(gif_frames "$tmp/s.gif")" -eq 12
check "render gif: says 12 frames" grep -q "12 frames 96x96" "$tmp/err"
expect 0 "render gif again" -- "$FERRY" render "$sample" "$tmp/s2.gif" --duration 1.2 --fps 10 --time 0.5 --size 96x96
check "render gif: the same bytes for the same seed" same_output "$tmp/s.gif" "$tmp/s2.gif"

# ---- a truncated particle system: a located error, nothing else (under
# the sanitizer build LeakSanitizer fails these if the bytes leak) ----
head -c 100 "$sample" >"$tmp/cut.alo"
expect 1 "particles on a truncated file" -- "$FERRY" particles "$tmp/cut.alo" --time 0.5
check "particles: the error is located" grep -q "cut.alo: error: offset 0x" "$tmp/err"
expect 1 "render on a truncated file" -- "$FERRY" render "$tmp/cut.alo" "$tmp/cut.png" --time 0.5
check "render: the error is located" grep -q "cut.alo: error: offset 0x" "$tmp/err"
check "render: nothing written" test ! -e "$tmp/cut.png"

# ---- real effects ----
corpus="$SHARED/corpus/alamo/icw/Models"
if [ ! -d "$corpus" ]; then
  left_out "the real effects ($corpus is absent)"
  finish
  exit $?
fi
for name in P_EXPLOSION_BIG00 P_BOMBLET P_FIRE_BIG00 PE_ASSAULTCRUISERENGINE P_EXPLOSION_EMPIRE_HUGE00; do
  f="$corpus/$name.ALO"
  expect 0 "particles $name" -- "$FERRY" particles "$f" --time 0.5 --json
  check "particles $name: some live" jq -e '[.emitters[].particles[]] | length > 0' "$tmp/out" >/dev/null
  expect 0 "render $name" -- "$FERRY" render "$f" "$tmp/r.png" --time 0.5 --size 96x96
  check "render $name: visible" test "$(lit "$tmp/r.png")" -gt 20
done
finish
