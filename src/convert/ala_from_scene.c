/* Scene (glTF) animations -> ALA: the inverse of alo_scene_anim.c. Each
 * bone's node channels are evaluated at whole frames (frame / fps seconds),
 * turned into Alamo space where the bone hangs on something that is not a
 * bone, quantized with per-bone offsets and scales that span exactly the
 * values used, and written as a format-1 animation which ferry_ala_convert
 * then packs into the format asked for. docs/formats/gltf-import.md,
 * "Animations", records every decision. */
#include "convert_internal.h"

#include <ferry/ala.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FPS 30.0
/* Frames at most: nine hours at 30 fps, far beyond any game animation,
 * and small enough that the bit and value arrays stay reasonable. */
#define MAX_FRAMES 1000000u
/* Bone-frames at most (frames x animated bones): 16 million, some 400 MB
 * of work arrays; the largest real animation has 47,000. */
#define MAX_BONE_FRAMES 16000000u
/* Format 2 addresses a bone's rotation by an int16 index counted in values
 * (4 per bone): at most 8192 rotated bones fit. */
#define FORMAT2_MAX_BONES 8192u
/* Time tolerance, in frames, for "at a key": keys written at frame / fps
 * as floats sit within float rounding of the frame. */
#define KEY_EPS_FRAMES 1e-4
/* Where, inside a frame's interval, a value is probed for a hold. */
#define HOLD_PROBE 0.99

typedef struct bone_src {
    int32_t node;           /* the scene node that is this bone */
    const char *name;
    const ferry_scene_channel *ch[3]; /* translation, rotation, scale, or NULL */
    const ferry_json *visibility;     /* array of 0/1, or NULL */
    /* Alamo space of the bone's parent: the node's values are composed with
     * this transform (identity for bones hanging on bones or on the axis root). */
    double ct[3], cq[4], cs;
    bool convert;
} bone_src;

typedef struct builder {
    const ferry_scene *scene;
    const ferry_scene_animation *anim;
    size_t animation_index;
    ferry_diagnostics *diags;
    ferry_error *err;
    ferry_arena *tmp;
    double fps;
    uint32_t frames;
    size_t repaired;
} builder;

static void warn(builder *b, const char *rule, const char *fmt, ...) FY_PRINTF(3, 4);

static void warn(builder *b, const char *rule, const char *fmt, ...)
{
    if (!b->diags) return;
    char path[48], message[256];
    snprintf(path, sizeof path, "animations[%zu]", b->animation_index);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    fy_diag_add(b->diags, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, path, rule, "%s", message);
}

static bool fail(builder *b, ferry_result code, const char *fmt, ...) FY_PRINTF(3, 4);

static bool fail(builder *b, ferry_result code, const char *fmt, ...)
{
    char path[48];
    snprintf(path, sizeof path, "animations[%zu]", b->animation_index);
    va_list ap;
    va_start(ap, fmt);
    fy_error_setv(b->err, code, FERRY_NO_OFFSET, path, fmt, ap);
    va_end(ap);
    return false;
}

static void *tmp_alloc(builder *b, size_t count, size_t size)
{
    if (count == 0) count = 1;
    if (size && count > SIZE_MAX / size) return NULL;
    void *p = ferry_arena_alloc(b->tmp, count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

/* ---- names and extras ---- */

static bool json_is_str(const ferry_json *j, const char *s)
{
    return j && j->kind == FERRY_JSON_STRING && j->length == strlen(s) && memcmp(j->string, s, j->length) == 0;
}

static bool json_number(const ferry_json *j, double *v)
{
    if (!j) return false;
    if (j->kind == FERRY_JSON_INTEGER) *v = (double)j->integer;
    else if (j->kind == FERRY_JSON_REAL) *v = j->real;
    else return false;
    return isfinite(*v);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = s ? strlen(s) : 0, m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static bool is_axis_root(const ferry_scene_node *n)
{
    return json_is_str(ferry_json_get(n->extras, "alamo"), "axis_root") || ends_with(n->name, " (Z-up to Y-up)");
}

static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y || !x) return x - y;
    }
}

/* Names equal ignoring ASCII case; with `suffixed`, `node` may add a
 * ".NNN" (digits) to `bone`. */
static bool name_matches(const char *node, const char *bone, bool suffixed)
{
    if (!suffixed) return ascii_casecmp(node, bone) == 0;
    size_t n = strlen(node), m = strlen(bone);
    if (n < m + 2 || node[m] != '.') return false;
    for (size_t i = m + 1; i < n; i++)
        if (node[i] < '0' || node[i] > '9') return false;
    char head[256];
    if (m >= sizeof head) return false;
    memcpy(head, node, m);
    head[m] = 0;
    return ascii_casecmp(head, bone) == 0;
}

static bool role_is(const ferry_scene_node *n, const char *role)
{
    return json_is_str(ferry_json_get(n->extras, "alamo"), role);
}

/* Whether a node's local transform is the identity: its matrix R x S within
 * 1e-4 of the unit matrix, its translation within 1e-3 of zero. */
static bool near_identity(const ferry_scene_node *n)
{
    double q[4] = {n->rotation[0], n->rotation[1], n->rotation[2], n->rotation[3]};
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(l > 0)) return false;
    for (int k = 0; k < 4; k++) q[k] /= l;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            if (!(fabs(r[c * 3 + k] * n->scale[c] - (c == k)) <= 1e-4)) return false;
    for (int k = 0; k < 3; k++)
        if (!(fabs(n->translation[k]) <= 1e-3)) return false;
    return true;
}

/* The model writer's rule (ferry_alo_from_scene, gltf-import.md "Nodes"):
 * every node is a bone except the axis root, nodes ferry's extras call
 * meshes or dazzles, skinned mesh nodes, and proxies and lights that sit
 * exactly at their parent (one moved away gets a bone of its own). */
static bool is_bone_node(const ferry_scene_node *n, bool axis_root)
{
    if (axis_root) return false;
    bool proxy = !n->has_mesh && (role_is(n, "proxy") || (!role_is(n, "dazzle") && ferry_json_get(n->extras, "proxy")));
    if (proxy || (role_is(n, "light") && !n->has_mesh)) return !near_identity(n);
    if (role_is(n, "mesh") || role_is(n, "dazzle")) return false;
    if (n->has_skin && n->has_mesh) return false;
    return true;
}

size_t ferry_ala_scene_bones(const ferry_scene *scene, int32_t *nodes, size_t capacity)
{
    if (!scene) return 0;
    /* ferry's export: a root node whose extras say axis_root. */
    int32_t axis = -1;
    for (size_t i = 0; i < scene->node_count && axis < 0; i++)
        if (!scene->nodes[i].has_parent && role_is(&scene->nodes[i], "axis_root")) axis = (int32_t)i;
    size_t n = 0;
    /* Other tools' glTF: the model gets a Root bone first, on no node. */
    if (axis < 0) {
        if (n < capacity) nodes[n] = -1;
        n++;
    }
    for (size_t i = 0; i < scene->node_count; i++) {
        if (!is_bone_node(&scene->nodes[i], (int32_t)i == axis)) continue;
        if (n < capacity) nodes[n] = (int32_t)i;
        n++;
    }
    return n;
}

/* ---- math (double) ---- */

static void qmul(const double a[4], const double b[4], double o[4])
{
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(o, r, sizeof r);
}

static void qrot(const double q[4], const double v[3], double o[3])
{
    double p[4] = {v[0], v[1], v[2], 0}, c[4] = {-q[0], -q[1], -q[2], q[3]}, t[4];
    qmul(q, p, t);
    qmul(t, c, t);
    o[0] = t[0];
    o[1] = t[1];
    o[2] = t[2];
}

static void qnorm(double q[4])
{
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(l > 1e-12) || !isfinite(l)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    for (int k = 0; k < 4; k++) q[k] /= l;
}

/* ---- evaluating channels ---- */

/* The value of key k, component c (CUBICSPLINE keys hold in-tangent,
 * value, out-tangent). */
static double key_value(const ferry_scene_channel *ch, size_t width, size_t k, size_t c)
{
    if (ch->interpolation == FERRY_INTERP_CUBICSPLINE) return ch->values[(3 * k + 1) * width + c];
    return ch->values[k * width + c];
}

/* Evaluates a channel at time t (seconds); eps is the key tolerance. */
static void eval(const ferry_scene_channel *ch, size_t width, double t, double eps, double out[4])
{
    size_t n = ch->key_count;
    if (n == 1 || t <= ch->times[0] + eps) {
        for (size_t c = 0; c < width; c++) out[c] = key_value(ch, width, 0, c);
        return;
    }
    if (t >= ch->times[n - 1] - eps) {
        for (size_t c = 0; c < width; c++) out[c] = key_value(ch, width, n - 1, c);
        return;
    }
    /* The last key at or before t (within eps). */
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ch->times[mid] <= t + eps) lo = mid;
        else hi = mid;
    }
    if (ch->times[hi] <= t + eps) lo = hi;
    if (fabs(t - ch->times[lo]) <= eps || ch->interpolation == FERRY_INTERP_STEP || lo + 1 >= n) {
        for (size_t c = 0; c < width; c++) out[c] = key_value(ch, width, lo, c);
        return;
    }
    double t0 = ch->times[lo], t1 = ch->times[lo + 1], td = t1 - t0;
    double u = (t - t0) / td;
    if (ch->interpolation == FERRY_INTERP_CUBICSPLINE) {
        /* glTF's Hermite spline: out-tangent of key lo, in-tangent of lo + 1, scaled by the interval. */
        double u2 = u * u, u3 = u2 * u;
        double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        for (size_t c = 0; c < width; c++) {
            double v0 = ch->values[(3 * lo + 1) * width + c], b0 = ch->values[(3 * lo + 2) * width + c];
            double v1 = ch->values[(3 * (lo + 1) + 1) * width + c], a1 = ch->values[(3 * (lo + 1)) * width + c];
            out[c] = h00 * v0 + h10 * td * b0 + h01 * v1 + h11 * td * a1;
        }
        if (width == 4) qnorm(out);
        return;
    }
    if (width == 4) {
        double a[4], b[4];
        for (int c = 0; c < 4; c++) {
            a[c] = key_value(ch, 4, lo, (size_t)c);
            b[c] = key_value(ch, 4, lo + 1, (size_t)c);
        }
        qnorm(a);
        qnorm(b);
        double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        if (d < 0) {
            d = -d;
            for (int c = 0; c < 4; c++) b[c] = -b[c];
        }
        double wa = 1 - u, wb = u;
        if (d < 0.9995) {
            double th = acos(d), s = sin(th);
            wa = sin((1 - u) * th) / s;
            wb = sin(u * th) / s;
        }
        for (int c = 0; c < 4; c++) out[c] = wa * a[c] + wb * b[c];
        qnorm(out);
        return;
    }
    for (size_t c = 0; c < width; c++) {
        double v0 = key_value(ch, width, lo, c), v1 = key_value(ch, width, lo + 1, c);
        out[c] = v0 + (v1 - v0) * u;
    }
}

typedef struct pose {
    double t[3], q[4], s[3];
} pose;

/* A bone's pose at time t in Alamo space: its channels, or its node's
 * rest values where it has none, composed with the parent's conversion. */
static void bone_pose(const builder *b, const bone_src *bs, double t, pose *p)
{
    const ferry_scene_node *nd = &b->scene->nodes[bs->node];
    double eps = KEY_EPS_FRAMES / b->fps, v[4];
    for (int k = 0; k < 3; k++) {
        p->t[k] = nd->translation[k];
        p->s[k] = nd->scale[k];
    }
    for (int k = 0; k < 4; k++) p->q[k] = nd->rotation[k];
    if (bs->ch[0]) {
        eval(bs->ch[0], 3, t, eps, v);
        memcpy(p->t, v, sizeof p->t);
    }
    if (bs->ch[1]) {
        eval(bs->ch[1], 4, t, eps, v);
        memcpy(p->q, v, sizeof p->q);
    }
    if (bs->ch[2]) {
        eval(bs->ch[2], 3, t, eps, v);
        memcpy(p->s, v, sizeof p->s);
    }
    qnorm(p->q);
    if (bs->convert) {
        double r[3], sc[3] = {p->t[0] * bs->cs, p->t[1] * bs->cs, p->t[2] * bs->cs};
        qrot(bs->cq, sc, r);
        for (int k = 0; k < 3; k++) {
            p->t[k] = bs->ct[k] + r[k];
            p->s[k] *= bs->cs;
        }
        qmul(bs->cq, p->q, p->q);
        qnorm(p->q);
    }
}

/* ---- the parent's conversion ---- */

/* Alamo space of a bone whose parent node is not a bone: the transforms of
 * the non-bone nodes between it and the nearest bone above, and when no
 * bone is above, glTF's Y-up turned to Z-up (+90 degrees about X) in front.
 * Under ferry's axis root (-90 degrees about X) that is the identity: the
 * values are copied as they are. */
static void parent_conversion(const builder *b, const int32_t *bone_of_node, bone_src *bs)
{
    double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s = 1;
    int32_t chain[64];
    size_t n = 0;
    bool under_bone = false;
    for (int64_t p = FY_REF(&b->scene->nodes[bs->node], parent); p >= 0 && (size_t)p < b->scene->node_count && n < 64;
         p = FY_REF(&b->scene->nodes[p], parent)) {
        if (bone_of_node[p] >= 0) {
            under_bone = true;
            break;
        }
        chain[n++] = (int32_t)p;
    }
    bs->convert = false;
    if (under_bone && n == 0) return; /* hangs on a bone: nothing to convert */
    while (n--) {
        const ferry_scene_node *nd = &b->scene->nodes[chain[n]];
        double lt[3] = {nd->translation[0], nd->translation[1], nd->translation[2]};
        double lq[4] = {nd->rotation[0], nd->rotation[1], nd->rotation[2], nd->rotation[3]}, r[3];
        qnorm(lq);
        for (int k = 0; k < 3; k++) lt[k] *= s;
        qrot(q, lt, r);
        for (int k = 0; k < 3; k++) t[k] += r[k];
        qmul(q, lq, q);
        qnorm(q);
        /* Scales compose as one number: the largest of the node's (a
         * non-uniform scale between bones cannot be expressed per bone). */
        double ls = fmax(fabs(nd->scale[0]), fmax(fabs(nd->scale[1]), fabs(nd->scale[2])));
        s *= ls > 0 && isfinite(ls) ? ls : 1;
    }
    if (under_bone) {
        memcpy(bs->ct, t, sizeof t);
        memcpy(bs->cq, q, sizeof q);
    } else {
        const double h = sqrt(0.5), up[4] = {h, 0, 0, h};
        double r[3];
        qrot(up, t, r);
        memcpy(bs->ct, r, sizeof r);
        qmul(up, q, bs->cq);
        qnorm(bs->cq);
    }
    bs->cs = s;
    double id = fabs(bs->cq[0]) + fabs(bs->cq[1]) + fabs(bs->cq[2]);
    bs->convert = !(id < 1e-6 && fabs(s - 1) < 1e-6 && fabs(bs->ct[0]) + fabs(bs->ct[1]) + fabs(bs->ct[2]) < 1e-9);
}

/* ---- quantizing ---- */

static bool near_value(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* One vector channel of a bone over the frames: offset = smallest value,
 * scale = range / 65535 per axis, so both ends decode exactly and no
 * value is off by more than half a step. A channel that never changes
 * gets no track: its offset is the value. */
static bool quantize3(builder *b, const double *v, float offset[3], float scale[3], uint16_t **track, size_t *count,
                      bool *has)
{
    uint32_t nf = b->frames;
    bool moves = false;
    for (int k = 0; k < 3; k++) {
        double lo = v[k], hi = v[k];
        for (uint32_t f = 1; f < nf; f++) {
            lo = fmin(lo, v[f * 3 + k]);
            hi = fmax(hi, v[f * 3 + k]);
        }
        offset[k] = (float)lo;
        scale[k] = (float)((hi - lo) / 65535.0);
        if (scale[k] > 0) moves = true;
        else scale[k] = 0;
    }
    *has = moves;
    *track = NULL;
    *count = 0;
    if (!moves) {
        for (int k = 0; k < 3; k++) offset[k] = (float)v[k];
        return true;
    }
    uint16_t *q = tmp_alloc(b, (size_t)nf * 3, sizeof *q);
    if (!q) return false;
    for (uint32_t f = 0; f < nf; f++)
        for (int k = 0; k < 3; k++) {
            double x = scale[k] > 0 ? (v[f * 3 + k] - (double)offset[k]) / (double)scale[k] : 0;
            x = floor(x + 0.5);
            q[f * 3 + k] = (uint16_t)(x < 0 ? 0 : x > 65535 ? 65535 : x);
        }
    *track = q;
    *count = nf;
    return true;
}

static int16_t q16(double x)
{
    double r = floor(x * 32767.0 + 0.5);
    return (int16_t)(r < -32767 ? -32767 : r > 32767 ? 32767 : r);
}

/* ---- the animation ---- */

static const ferry_scene_channel *checked_channel(builder *b, size_t c)
{
    const ferry_scene_channel *ch = &b->anim->channels[c];
    size_t width = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
    if (ch->key_count == 0 || !ch->times || !ch->values) {
        warn(b, "anim-channel-empty", "channel %zu has no keys: ignored", c);
        return NULL;
    }
    for (size_t k = 0; k < ch->key_count; k++) {
        if (!isfinite(ch->times[k]) || (k && !(ch->times[k] > ch->times[k - 1]))) {
            fail(b, FERRY_ERR_MALFORMED, "channel %zu: key time %zu is %s", c, k,
                 isfinite(ch->times[k]) ? "not after the previous one" : "not a finite number");
            return NULL;
        }
    }
    (void)width;
    return ch;
}

/* Non-finite values: replaced by the node's rest value (a copy of the
 * channel's values in the scratch arena). */
static const ferry_scene_channel *repaired_channel(builder *b, const ferry_scene_channel *ch, size_t c)
{
    size_t width = ch->path == FERRY_ANIM_ROTATION ? 4 : 3;
    size_t per_key = ch->interpolation == FERRY_INTERP_CUBICSPLINE ? 3 : 1;
    size_t n = ch->key_count * per_key * width, bad = 0;
    for (size_t i = 0; i < n; i++) bad += !isfinite(ch->values[i]);
    if (!bad) return ch;
    float *v = tmp_alloc(b, n, sizeof *v);
    ferry_scene_channel *copy = tmp_alloc(b, 1, sizeof *copy);
    if (!v || !copy) return NULL;
    const ferry_scene_node *nd = &b->scene->nodes[ch->node];
    const float *rest = ch->path == FERRY_ANIM_TRANSLATION ? nd->translation : ch->path == FERRY_ANIM_ROTATION ? nd->rotation : nd->scale;
    for (size_t i = 0; i < n; i++) {
        bool tangent = per_key == 3 && (i / width) % 3 != 1;
        v[i] = isfinite(ch->values[i]) ? ch->values[i] : tangent ? 0.0f : rest[i % width];
    }
    *copy = *ch;
    copy->values = v;
    b->repaired += bad;
    warn(b, "anim-value-finite", "channel %zu (node '%.60s'): %zu values are not finite numbers; the node's rest value "
         "used instead", c, nd->name ? nd->name : "", bad);
    return copy;
}

static bool build(builder *b, const ferry_ala_from_scene_options *o, ferry_ala_animation *anim,
                  ferry_ala_from_scene_report *rep)
{
    const ferry_scene *s = b->scene;
    const ferry_scene_animation *a = b->anim;
    /* The skeleton: given names, or the scene's bones. */
    size_t bone_count;
    int32_t *bone_node;
    const char **bone_name;
    int32_t *bone_of_node = tmp_alloc(b, s->node_count, sizeof *bone_of_node);
    if (!bone_of_node) return false;
    for (size_t i = 0; i < s->node_count; i++) bone_of_node[i] = -1;
    if (o->bone_names) {
        bone_count = o->bone_count;
        bone_node = tmp_alloc(b, bone_count, sizeof *bone_node);
        bone_name = tmp_alloc(b, bone_count, sizeof *bone_name);
        if (!bone_node || !bone_name) return false;
        /* Passes: a node ferry's extras mark as a bone, then any node
         * without another role (not a mesh, light, proxy...), then the
         * same with a ".NNN" suffix Blender adds to repeated names
         * ("pe_Z95engines.001" when a proxy holds the plain name). */
        for (size_t k = 0; k < bone_count; k++) {
            bone_name[k] = o->bone_names[k] ? o->bone_names[k] : "";
            bone_node[k] = -1;
        }
        for (int pass = 0; pass < 4; pass++)
            for (size_t k = 0; k < bone_count; k++)
                for (size_t i = 0; i < s->node_count && bone_node[k] < 0; i++) {
                    const ferry_scene_node *nd = &s->nodes[i];
                    const ferry_json *role = ferry_json_get(nd->extras, "alamo");
                    if (!nd->name || bone_of_node[i] >= 0) continue;
                    if ((pass % 2 == 0) != json_is_str(role, "bone")) continue;
                    if (pass % 2 == 1 && (role || is_axis_root(nd))) continue;
                    if (!name_matches(nd->name, bone_name[k], pass >= 2)) continue;
                    bone_node[k] = (int32_t)i;
                    bone_of_node[i] = (int32_t)k;
                }
    } else {
        bone_count = ferry_ala_scene_bones(s, NULL, 0);
        bone_node = tmp_alloc(b, bone_count, sizeof *bone_node);
        bone_name = tmp_alloc(b, bone_count, sizeof *bone_name);
        if (!bone_node || !bone_name) return false;
        ferry_ala_scene_bones(s, bone_node, bone_count);
        for (size_t k = 0; k < bone_count; k++) {
            if (bone_node[k] < 0) {
                bone_name[k] = "Root"; /* the model writer's added root bone */
                continue;
            }
            bone_of_node[bone_node[k]] = (int32_t)k;
            bone_name[k] = s->nodes[bone_node[k]].name ? s->nodes[bone_node[k]].name : "";
        }
    }
    bone_src *src = tmp_alloc(b, bone_count, sizeof *src);
    bool *driven = tmp_alloc(b, bone_count, sizeof *driven);
    if (!src || !driven) return false;
    for (size_t k = 0; k < bone_count; k++) {
        src[k].node = bone_node[k];
        src[k].name = bone_name[k];
    }
    /* Channels onto bones. */
    double max_time = 0;
    size_t ignored = 0, used = 0;
    for (size_t c = 0; c < a->channel_count; c++) {
        const ferry_scene_channel *ch0 = &a->channels[c];
        if (ch0->node < 0 || (size_t)ch0->node >= s->node_count) return fail(b, FERRY_ERR_MALFORMED, "channel %zu: node %d is not in the scene", c, (int)ch0->node);
        if (ch0->path == FERRY_ANIM_WEIGHTS) {
            warn(b, "anim-weights", "channel %zu animates morph weights of node '%.60s', which ALA cannot hold: ignored", c,
                 s->nodes[ch0->node].name ? s->nodes[ch0->node].name : "");
            ignored++;
            continue;
        }
        int32_t bone = bone_of_node[ch0->node];
        if (bone < 0) {
            warn(b, "anim-not-bone", "channel %zu animates node '%.60s', which is not a bone of the model: ignored", c,
                 s->nodes[ch0->node].name ? s->nodes[ch0->node].name : "");
            ignored++;
            continue;
        }
        const ferry_scene_channel *ch = checked_channel(b, c);
        if (!ch) {
            if (b->err->code != FERRY_OK) return false;
            ignored++;
            continue;
        }
        ch = repaired_channel(b, ch, c);
        if (!ch) return false;
        int slot = ch->path == FERRY_ANIM_TRANSLATION ? 0 : ch->path == FERRY_ANIM_ROTATION ? 1 : 2;
        if (src[bone].ch[slot]) {
            warn(b, "anim-duplicate", "channel %zu animates what an earlier channel does (bone '%.60s'): ignored", c, src[bone].name);
            ignored++;
            continue;
        }
        src[bone].ch[slot] = ch;
        driven[bone] = true;
        used++;
        max_time = fmax(max_time, ch->times[ch->key_count - 1]);
    }
    /* Visibility from ferry's extras: by bone name, else node index. */
    const ferry_json *vis = ferry_json_get(a->extras, "visibility");
    for (size_t i = 0; vis && vis->kind == FERRY_JSON_ARRAY && i < vis->count; i++) {
        const ferry_json *e = vis->items[i], *bits = ferry_json_get(e, "visible"), *bn = ferry_json_get(e, "bone");
        if (!bits || bits->kind != FERRY_JSON_ARRAY) continue;
        /* The node ferry's export names, when it is a bone of that name
         * (names repeat: several "p_rebelsmokedeath" in one model), else
         * the first bone of the name. */
        int32_t bone = -1;
        double nodev;
        if (json_number(ferry_json_get(e, "node"), &nodev) && nodev >= 0 && nodev < (double)s->node_count) {
            int32_t k = bone_of_node[(size_t)nodev];
            if (k >= 0 && (!bn || bn->kind != FERRY_JSON_STRING ||
                           (strlen(src[k].name) == bn->length && memcmp(src[k].name, bn->string, bn->length) == 0)))
                bone = k;
        }
        for (size_t k = 0; bn && bn->kind == FERRY_JSON_STRING && k < bone_count && bone < 0; k++)
            if (src[k].node >= 0 && strlen(src[k].name) == bn->length && memcmp(src[k].name, bn->string, bn->length) == 0)
                bone = (int32_t)k;
        if (bone < 0) {
            warn(b, "anim-not-bone", "visibility %zu names no bone of the model: ignored", i);
            continue;
        }
        src[bone].visibility = bits;
        driven[bone] = true;
    }
    /* The rate and the length. */
    double fps = o->fps;
    bool assumed = false;
    if (!(isfinite(fps) && fps > 0)) {
        if (!json_number(ferry_json_get(a->extras, "fps"), &fps) || !(fps > 0)) {
            if (!json_number(ferry_json_get(a->extras, "fps_assumed"), &fps) || !(fps > 0)) {
                fps = DEFAULT_FPS;
                assumed = true;
            }
        }
    }
    if (fps > 1e6) return fail(b, FERRY_ERR_ARGUMENT, "%g frames per second is not a usable rate", fps);
    /* The rate of the extras' frame_count and visibility bits. */
    double vis_fps = fps;
    if (!json_number(ferry_json_get(a->extras, "fps"), &vis_fps) || !(vis_fps > 0)) {
        if (!json_number(ferry_json_get(a->extras, "fps_assumed"), &vis_fps) || !(vis_fps > 0)) vis_fps = fps;
    }
    b->fps = fps;
    double frames_d = ceil(max_time * fps - KEY_EPS_FRAMES) + 1;
    double stated;
    bool has_stated = json_number(ferry_json_get(a->extras, "frame_count"), &stated) && stated >= 1 && stated <= MAX_FRAMES;
    if (has_stated) {
        /* The stated count is at the extras' rate: its duration at ours. */
        double from_stated = vis_fps == fps ? floor(stated) : ceil((floor(stated) - 1) / vis_fps * fps - KEY_EPS_FRAMES) + 1;
        if (from_stated > frames_d) frames_d = from_stated;
    }
    if (!(frames_d <= MAX_FRAMES))
        return fail(b, FERRY_ERR_UNSUPPORTED, "lasts %g s, %.0f frames at %g fps: more than ALA's %u frames ferry writes",
                    max_time, frames_d, fps, MAX_FRAMES);
    if (frames_d < 1) frames_d = 1;
    b->frames = (uint32_t)frames_d;
    if (max_time == 0 && used > 0 && b->frames == 1 && !has_stated)
        warn(b, "anim-zero-length", "every key is at time 0: a one-frame animation (a pose)");
    size_t tracks = 0;
    for (size_t k = 0; k < bone_count; k++) tracks += driven[k];
    if (tracks == 0) warn(b, "anim-no-bones", "animates no bone of the model: the ALA holds no tracks");
    if ((double)tracks * b->frames > MAX_BONE_FRAMES)
        return fail(b, FERRY_ERR_UNSUPPORTED, "%u frames x %zu bones is more than the %u bone-frames ferry writes",
                    (unsigned)b->frames, tracks, MAX_BONE_FRAMES);
    if (o->format == FERRY_ALA_FORMAT_2 && tracks > FORMAT2_MAX_BONES)
        return fail(b, FERRY_ERR_UNSUPPORTED, "animates %zu bones; format 2 indexes at most %u (its indices are 16-bit): "
                    "use format 1", tracks, FORMAT2_MAX_BONES);
    /* Tracks, in bone order. */
    ferry_ala_bone *bones = tmp_alloc(b, tracks, sizeof *bones);
    double *vt = tmp_alloc(b, (size_t)b->frames * 3, sizeof *vt), *vs = tmp_alloc(b, (size_t)b->frames * 3, sizeof *vs);
    double *vq = tmp_alloc(b, (size_t)b->frames * 4, sizeof *vq);
    if (!bones || !vt || !vs || !vq) return false;
    size_t out_n = 0, step_frames = 0;
    for (size_t k = 0; k < bone_count; k++) {
        if (!driven[k]) continue;
        bone_src *bs = &src[k];
        parent_conversion(b, bone_of_node, bs);
        ferry_ala_bone *ab = &bones[out_n++];
        ab->name = bs->name;
        ab->index = (uint32_t)k;
        ab->translation_index = ab->scale_index = ab->rotation_index = FERRY_ALA_NOT_ANIMATED;
        ab->default_rotation[3] = 32767;
        ab->offset = FERRY_NO_OFFSET;
        for (uint32_t f = 0; f < b->frames; f++) {
            pose p;
            bone_pose(b, bs, f / fps, &p);
            memcpy(&vt[f * 3], p.t, sizeof p.t);
            memcpy(&vs[f * 3], p.s, sizeof p.s);
            /* Keep neighbouring rotations on one hemisphere. */
            if (f > 0 && p.q[0] * vq[(f - 1) * 4] + p.q[1] * vq[(f - 1) * 4 + 1] + p.q[2] * vq[(f - 1) * 4 + 2] +
                                 p.q[3] * vq[(f - 1) * 4 + 3] < 0)
                for (int c = 0; c < 4; c++) p.q[c] = -p.q[c];
            memcpy(&vq[f * 4], p.q, sizeof p.q);
        }
        uint16_t *tt, *ts;
        if (!quantize3(b, vt, ab->translation_offset, ab->translation_scale, &tt, &ab->translation_count, &ab->has_translations) ||
            !quantize3(b, vs, ab->scale_offset, ab->scale_scale, &ts, &ab->scale_count, &ab->has_scales))
            return false;
        ab->translations = tt;
        ab->scales = ts;
        /* Rotations: one entry when every frame stores the same integers. */
        int16_t *r = tmp_alloc(b, (size_t)b->frames * 4, sizeof *r);
        if (!r) return false;
        bool same = true;
        for (uint32_t f = 0; f < b->frames; f++)
            for (int c = 0; c < 4; c++) {
                r[f * 4 + c] = q16(vq[f * 4 + c]);
                if (r[f * 4 + c] != r[c]) same = false;
            }
        ab->rotations = r;
        ab->rotation_count = same ? 1 : b->frames;
        ab->has_rotations = true;
        /* Step bits: some channel holds its value through the frame and
         * changes at the next one, and none moves in between. */
        size_t bytes = ((size_t)b->frames + 7) / 8;
        uint8_t *steps = tmp_alloc(b, bytes, 1);
        if (!steps) return false;
        size_t nsteps = 0;
        for (uint32_t f = 0; f + 1 < b->frames; f++) {
            bool held = false, moving = false;
            for (int slot = 0; slot < 3; slot++) {
                const ferry_scene_channel *ch = bs->ch[slot];
                if (!ch || ch->key_count < 2) continue;
                size_t w = slot == 1 ? 4 : 3;
                double va[4], vb[4], vc[4], eps = KEY_EPS_FRAMES / fps;
                eval(ch, w, f / fps, eps, va);
                eval(ch, w, (f + HOLD_PROBE) / fps, eps, vb);
                eval(ch, w, (f + 1) / fps, eps, vc);
                bool ab_same = true, bc_same = true;
                for (size_t c = 0; c < w; c++) {
                    ab_same &= near_value(va[c], vb[c]);
                    bc_same &= near_value(vb[c], vc[c]);
                }
                if (!ab_same) moving = true;
                else if (!bc_same) held = true;
            }
            if (held && !moving) {
                steps[f / 8] |= (uint8_t)(1u << (f % 8));
                nsteps++;
            }
        }
        if (nsteps) {
            ab->steps = steps;
            ab->step_size = bytes;
            ab->has_steps = true;
            step_frames += nsteps;
        }
        if (bs->visibility) {
            uint8_t *bits = tmp_alloc(b, bytes, 1);
            if (!bits) return false;
            size_t n = bs->visibility->count;
            for (uint32_t f = 0; f < b->frames; f++) {
                /* The bits are per frame of the extras' rate: the one at or
                 * before this frame's time when the rates differ. */
                double src_f = vis_fps == fps ? f : floor(f / fps * vis_fps + KEY_EPS_FRAMES);
                size_t at = src_f < (double)n ? (size_t)src_f : n - 1;
                double v = 1;
                if (n) json_number(bs->visibility->items[at], &v);
                if (v != 0) bits[f / 8] |= (uint8_t)(1u << (f % 8));
            }
            ab->visibility = bits;
            ab->visibility_size = bytes;
            ab->has_visibility = true;
        }
    }
    anim->format = FERRY_ALA_FORMAT_1;
    anim->frame_count = b->frames;
    anim->fps = (float)fps;
    anim->bones = bones;
    anim->bone_count = out_n;
    anim->stated_bone_count = (uint32_t)out_n;
    anim->offset = anim->header_offset = anim->frame_rotations_offset = anim->frame_translations_offset =
        anim->frame_scales_offset = FERRY_NO_OFFSET;
    if (rep) {
        rep->fps = fps;
        rep->fps_assumed = assumed;
        rep->frames = b->frames;
        rep->tracks = out_n;
        rep->channels_used = used;
        rep->channels_ignored = ignored;
        rep->values_repaired = b->repaired;
        rep->step_frames = step_frames;
    }
    return true;
}

ferry_result ferry_ala_from_scene(const ferry_scene *scene, const ferry_ala_from_scene_options *options,
                                  ferry_ala_animation **out, ferry_error *err)
{
    ferry_error local;
    if (out) *out = NULL;
    if (!fy_convert_args(&err, &local, out != NULL, scene, "scene")) return err->code;
    ferry_ala_from_scene_options defaults;
    const ferry_ala_from_scene_options *o = FY_OPTIONS_OR_DEFAULTS(options, defaults);
    size_t animation_index = o->animation_index;
    if (animation_index >= scene->animation_count) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "animations",
                     "animation %zu asked for; the scene has %zu", animation_index, scene->animation_count);
        return err->code;
    }
    uint8_t format = o->format ? o->format : FERRY_ALA_FORMAT_2;
    if (format != FERRY_ALA_FORMAT_1 && format != FERRY_ALA_FORMAT_2) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "ALA format %u asked for: 1 or 2", (unsigned)o->format);
        return err->code;
    }
    ferry_ala_from_scene_options eff = *o;
    eff.format = format;
    if (o->report) memset(o->report, 0, sizeof *o->report);
    builder b = {0};
    b.scene = scene;
    b.anim = &scene->animations[animation_index];
    b.animation_index = animation_index;
    b.diags = o->diagnostics;
    b.err = err;
    b.tmp = ferry_arena_create(0);
    if (!b.tmp) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory");
        return err->code;
    }
    ferry_ala_animation anim;
    memset(&anim, 0, sizeof anim);
    bool ok = build(&b, &eff, &anim, o->report);
    if (!ok && err->code == FERRY_OK) fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory building the animation");
    ferry_result r = err->code;
    if (ok) r = ferry_ala_convert(&anim, (ferry_ala_format)format, NULL, out, err);
    ferry_arena_destroy(b.tmp);
    return r;
}
