/* A software renderer for particle systems: textured sprites, back to
 * front, in each emitter's blend mode, over a neutral background. No GPU.
 * The blend decisions are in docs/formats/alo-particle.md ("Drawing"). */
#include <ferry/particle_sim.h>

#include "../../core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 16384

typedef struct sprite {
    float depth;
    uint32_t index; /* into the states of all systems */
} sprite;

static int by_depth(const void *a, const void *b)
{
    const sprite *x = a, *y = b;
    /* Far first; NaN depths were left out before sorting. */
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0 && isfinite(l))
        for (int k = 0; k < 3; k++) v[k] /= l;
}

static void cross3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void ferry_particle_camera_frame(const float min[3], const float max[3], float aspect, ferry_particle_camera *out)
{
    memset(out, 0, sizeof *out);
    float c[3], r = 0;
    for (int k = 0; k < 3; k++) {
        float lo = isfinite(min[k]) ? min[k] : 0, hi = isfinite(max[k]) ? max[k] : 0;
        c[k] = (lo + hi) / 2;
        r += (hi - lo) * (hi - lo) / 4;
    }
    r = sqrtf(r);
    if (!(r > 1e-3f) || !isfinite(r)) r = 1;
    out->fov_y = 40.0f * 3.14159265f / 180;
    if (!(aspect > 0) || !isfinite(aspect)) aspect = 1;
    float half_y = out->fov_y / 2, half_x = atanf(tanf(half_y) * aspect);
    float dist = r / sinf(fminf(half_y, half_x)) * 1.02f;
    /* From the front right, above (Alamo: z up). */
    float dir[3] = {0.55f, -1.0f, 0.45f};
    normalize3(dir);
    for (int k = 0; k < 3; k++) {
        out->target[k] = c[k];
        out->eye[k] = c[k] + dir[k] * dist;
    }
    out->up[2] = 1;
}

/* The soft round sprite drawn when the texture is missing: a glow, bright
 * in the middle, faint at half the radius (real particle textures cover
 * only part of their square). u, v in 0..1 across the sprite. */
static float glow_alpha(float u, float v)
{
    float x = 2 * u - 1, y = 2 * v - 1, r2 = x * x + y * y;
    return r2 < 1 ? expf(-4 * r2) * (1 - r2) : 0;
}

/* Texture elements lie in a grid of ceil(sqrt(n)) columns, left to right,
 * top to bottom. */
static void element_grid(uint32_t texture_elements, uint32_t *cols, uint32_t *rows)
{
    uint32_t elements = texture_elements ? texture_elements : 1;
    uint32_t c = (uint32_t)ceil(sqrt((double)elements));
    if (c < 1) c = 1;
    *cols = c;
    /* In 64 bits: near UINT32_MAX elements the sum wraps, and 0 rows
     * would divide by zero. */
    *rows = (uint32_t)(((uint64_t)elements + c - 1) / c);
}

/* Texture: the element's rectangle in the grid. */
typedef struct tex_view {
    const ferry_image *img;
    uint32_t cols, rows;
} tex_view;

static void sample(const tex_view *t, uint32_t frame, float u, float v, float out[4])
{
    if (!t->img || !t->img->rgba || !t->img->width || !t->img->height) {
        out[0] = out[1] = out[2] = 1;
        out[3] = glow_alpha(u, v);
        return;
    }
    uint32_t col = frame % t->cols, row = (frame / t->cols) % t->rows;
    float ew = (float)t->img->width / (float)t->cols, eh = (float)t->img->height / (float)t->rows;
    float fx = (col + u) * ew - 0.5f, fy = (row + v) * eh - 0.5f;
    float lox = col * ew, hix = (col + 1) * ew - 1, loy = row * eh, hiy = (row + 1) * eh - 1;
    fx = fminf(fmaxf(fx, lox), hix);
    fy = fminf(fmaxf(fy, loy), hiy);
    int x0 = (int)fx, y0 = (int)fy;
    float ax = fx - x0, ay = fy - y0;
    int x1 = x0 + 1 < (int)t->img->width ? x0 + 1 : x0, y1 = y0 + 1 < (int)t->img->height ? y0 + 1 : y0;
    const uint8_t *p = t->img->rgba;
    size_t w = t->img->width;
    for (int c = 0; c < 4; c++) {
        float a = p[((size_t)y0 * w + x0) * 4 + c], b = p[((size_t)y0 * w + x1) * 4 + c];
        float d = p[((size_t)y1 * w + x0) * 4 + c], e = p[((size_t)y1 * w + x1) * 4 + c];
        out[c] = ((a * (1 - ax) + b * ax) * (1 - ay) + (d * (1 - ax) + e * ax) * ay) / 255.0f;
    }
}

ferry_particle_blend ferry_particle_blend_of(const ferry_particle_properties *p)
{
    if (p->is_heat_particle) return FERRY_PARTICLE_BLEND_ALPHA; /* the specification's override */
    switch (p->blend_mode) {
    case 0: return FERRY_PARTICLE_BLEND_OPAQUE;
    case 1: case 4: return FERRY_PARTICLE_BLEND_ADD;
    case 3: case 6: return FERRY_PARTICLE_BLEND_MODULATE;
    case 8: case 9: return FERRY_PARTICLE_BLEND_DARKEN;
    default: return FERRY_PARTICLE_BLEND_ALPHA; /* 2, 5, 7, 10..13 */
    }
}

typedef struct vtx {
    float x, y, u, v;
} vtx;

static void draw_triangle(float *fb, uint32_t w, uint32_t h, const vtx *a, const vtx *b, const vtx *c,
                          const tex_view *t, uint32_t frame, const float color[4], ferry_particle_blend blend)
{
    float area = (b->x - a->x) * (c->y - a->y) - (b->y - a->y) * (c->x - a->x);
    if (!(fabsf(area) > 1e-12f)) return;
    float minx = fminf(a->x, fminf(b->x, c->x)), maxx = fmaxf(a->x, fmaxf(b->x, c->x));
    float miny = fminf(a->y, fminf(b->y, c->y)), maxy = fmaxf(a->y, fmaxf(b->y, c->y));
    if (!(maxx >= 0 && maxy >= 0 && minx < (float)w && miny < (float)h)) return;
    int x0 = (int)fmaxf(0, floorf(minx)), x1 = (int)fminf((float)w - 1, ceilf(maxx));
    int y0 = (int)fmaxf(0, floorf(miny)), y1 = (int)fminf((float)h - 1, ceilf(maxy));
    float inv = 1 / area;
    for (int y = y0; y <= y1; y++) {
        float py = y + 0.5f;
        for (int x = x0; x <= x1; x++) {
            float px = x + 0.5f;
            float wa = ((b->x - px) * (c->y - py) - (b->y - py) * (c->x - px)) * inv;
            float wb = ((c->x - px) * (a->y - py) - (c->y - py) * (a->x - px)) * inv;
            float wc = 1 - wa - wb;
            if (wa < 0 || wb < 0 || wc < 0) continue;
            float u = wa * a->u + wb * b->u + wc * c->u, v = wa * a->v + wb * b->v + wc * c->v;
            float s[4];
            sample(t, frame, u, v, s);
            float r = s[0] * color[0], g = s[1] * color[1], bl = s[2] * color[2], al = s[3] * color[3];
            float *d = &fb[((size_t)y * w + x) * 3];
            switch (blend) {
            case FERRY_PARTICLE_BLEND_OPAQUE:
                if (s[3] >= 0.5f) d[0] = r, d[1] = g, d[2] = bl;
                break;
            case FERRY_PARTICLE_BLEND_ADD:
                d[0] += r * al, d[1] += g * al, d[2] += bl * al;
                break;
            case FERRY_PARTICLE_BLEND_MODULATE:
                d[0] *= 1 - al + r * al, d[1] *= 1 - al + g * al, d[2] *= 1 - al + bl * al;
                break;
            case FERRY_PARTICLE_BLEND_DARKEN:
                d[0] *= 1 - al, d[1] *= 1 - al, d[2] *= 1 - al;
                break;
            default:
                d[0] += (r - d[0]) * al, d[1] += (g - d[1]) * al, d[2] += (bl - d[2]) * al;
                break;
            }
        }
    }
}

ferry_result ferry_particle_render(const ferry_particle_sim *sim, const ferry_particle_render_options *options,
                                   ferry_image *out, ferry_error *err)
{
    return ferry_particle_render_many(&sim, 1, options, out, err);
}

/* The camera's axes: forward, right and up, unit length. */
typedef struct view_axes {
    float fwd[3], right[3], up[3];
} view_axes;

static void camera_axes(const ferry_particle_camera *cam, view_axes *v)
{
    for (int k = 0; k < 3; k++) v->fwd[k] = cam->target[k] - cam->eye[k];
    normalize3(v->fwd);
    cross3(v->fwd, cam->up, v->right);
    normalize3(v->right);
    cross3(v->right, v->fwd, v->up);
}

#define NEAR_PLANE 1e-3f

ferry_result ferry_particle_sprites(const ferry_particle_sim *const *sims, size_t sim_count,
                                    const ferry_particle_camera *camera, ferry_particle_sprite **out, size_t *count,
                                    ferry_error *err)
{
    if (out) *out = NULL;
    if (count) *count = 0;
    if (!out || !count || !camera || (!sims && sim_count)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no simulations, camera or output given");
        return FERRY_ERR_ARGUMENT;
    }
    size_t n = 0;
    for (size_t k = 0; k < sim_count; k++)
        if (sims[k]) n += ferry_particle_sim_count(sims[k]);
    if (n > UINT32_MAX) {
        fy_error_set(err, FERRY_ERR_LIMIT, FERRY_NO_OFFSET, "", "more than 2^32 particles to draw");
        return FERRY_ERR_LIMIT;
    }
    sprite *order = malloc((n ? n : 1) * sizeof *order);
    ferry_particle_state *states = malloc((n ? n : 1) * sizeof *states);
    uint32_t *sys_of = malloc((n ? n : 1) * sizeof *sys_of);
    if (!order || !states || !sys_of) {
        free(order);
        free(states);
        free(sys_of);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory for %zu sprites", n);
        return FERRY_ERR_NOMEM;
    }
    const ferry_particle_camera *cam = camera;
    view_axes ax3;
    camera_axes(cam, &ax3);
    size_t m = 0, base = 0;
    for (size_t k = 0; k < sim_count; k++) {
        size_t c = sims[k] ? ferry_particle_sim_count(sims[k]) : 0;
        for (size_t i = 0; i < c; i++) {
            size_t at = base + i;
            ferry_particle_sim_get(sims[k], i, &states[at]);
            sys_of[at] = (uint32_t)k;
            float d[3];
            for (int q = 0; q < 3; q++) d[q] = states[at].position[q] - cam->eye[q];
            float z = dot3(d, ax3.fwd);
            if (!(z > NEAR_PLANE) || !isfinite(states[at].size) || !(states[at].color[3] > 0)) continue;
            order[m++] = (sprite){z, (uint32_t)at};
        }
        base += c;
    }
    qsort(order, m, sizeof *order, by_depth);
    ferry_particle_sprite *sp = m ? malloc(m * sizeof *sp) : NULL;
    if (m && !sp) {
        free(order);
        free(states);
        free(sys_of);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory for %zu sprites", m);
        return FERRY_ERR_NOMEM;
    }
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (size_t j = 0; j < m; j++) {
        const ferry_particle_state *p = &states[order[j].index];
        uint32_t k = sys_of[order[j].index];
        const ferry_particle_emitter *em = &ferry_particle_sim_system(sims[k])->emitters[p->emitter];
        ferry_particle_sprite *s = &sp[j];
        memset(s, 0, sizeof *s);
        s->depth = order[j].depth;
        s->system = k;
        s->emitter = p->emitter;
        s->frame = p->frame;
        s->blend = ferry_particle_blend_of(&em->properties);
        memcpy(s->color, p->color, sizeof s->color);
        float hs = fabsf(p->size) / 2;
        float cr = cosf(p->rotation), sr = sinf(p->rotation);
        float ax[3], ay[3];
        if (em->properties.not_billboarded) {
            const float X[3] = {1, 0, 0}, Y[3] = {0, 1, 0};
            for (int q = 0; q < 3; q++) {
                ax[q] = (cr * X[q] + sr * Y[q]) * hs;
                ay[q] = (-sr * X[q] + cr * Y[q]) * hs;
            }
        } else {
            for (int q = 0; q < 3; q++) {
                ax[q] = (cr * ax3.right[q] + sr * ax3.up[q]) * hs;
                ay[q] = (-sr * ax3.right[q] + cr * ax3.up[q]) * hs;
            }
        }
        /* A tail stretches the sprite backwards along its velocity. */
        float back[3] = {0, 0, 0};
        if (em->properties.has_tail && isfinite(em->properties.tail_size))
            for (int q = 0; q < 3; q++) back[q] = -p->velocity[q] * em->properties.tail_size * 0.05f;
        uint32_t cols, rows;
        element_grid(em->properties.texture_elements, &cols, &rows);
        uint32_t col = p->frame % cols, row = (p->frame / cols) % rows;
        for (int c = 0; c < 4; c++) {
            for (int q = 0; q < 3; q++) {
                s->corners[c][q] = p->position[q] + corner[c][0] * ax[q] + corner[c][1] * ay[q];
                if (corner[c][1] < 0) s->corners[c][q] += back[q];
            }
            s->uv[c][0] = (col + (corner[c][0] + 1) / 2) / cols;
            s->uv[c][1] = (row + (1 - corner[c][1]) / 2) / rows;
        }
    }
    free(order);
    free(states);
    free(sys_of);
    *out = sp;
    *count = m;
    return FERRY_OK;
}

void ferry_particle_sprites_free(ferry_particle_sprite *sprites) { free(sprites); }

ferry_result ferry_particle_glow_image(uint32_t side, ferry_image *out, ferry_error *err)
{
    if (!out || side < 1 || side > 4096) {
        if (out) memset(out, 0, sizeof *out);
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "a glow image of 1 to 4096 pixels a side is needed");
        return FERRY_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    out->rgba = malloc((size_t)side * side * 4);
    if (!out->rgba) {
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory for a %ux%u image", side, side);
        return FERRY_ERR_NOMEM;
    }
    out->width = out->height = side;
    for (uint32_t y = 0; y < side; y++)
        for (uint32_t x = 0; x < side; x++) {
            uint8_t *px = &out->rgba[((size_t)y * side + x) * 4];
            float a = glow_alpha((x + 0.5f) / side, (y + 0.5f) / side);
            px[0] = px[1] = px[2] = 255;
            px[3] = (uint8_t)(a * 255 + 0.5f);
        }
    return FERRY_OK;
}

ferry_result ferry_particle_render_many(const ferry_particle_sim *const *sims, size_t sim_count,
                                        const ferry_particle_render_options *options, ferry_image *out,
                                        ferry_error *err)
{
    memset(out, 0, sizeof *out);
    if ((!sims && sim_count) || !options || !options->width || !options->height || options->width > MAX_SIDE ||
        options->height > MAX_SIDE) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "an image of 1 to %d pixels a side is needed",
                     MAX_SIDE);
        return FERRY_ERR_ARGUMENT;
    }
    uint32_t w = options->width, h = options->height;
    const ferry_particle_camera *cam = &options->camera;
    ferry_particle_sprite *sp = NULL;
    size_t m = 0;
    ferry_result r = ferry_particle_sprites(sims, sim_count, cam, &sp, &m, err);
    if (r != FERRY_OK) return r;
    size_t ne = 0;
    for (size_t k = 0; k < sim_count; k++)
        if (sims[k]) ne += ferry_particle_sim_system(sims[k])->emitter_count;
    float *fb = malloc((size_t)w * h * 3 * sizeof *fb);
    uint32_t *tex_base = malloc((sim_count ? sim_count : 1) * sizeof *tex_base); /* each system's first tex */
    out->rgba = malloc((size_t)w * h * 4);
    tex_view *tex = calloc(ne ? ne : 1, sizeof *tex);
    if (!fb || !out->rgba || !tex || !tex_base) {
        free(fb);
        free(tex);
        free(tex_base);
        free(out->rgba);
        out->rgba = NULL;
        ferry_particle_sprites_free(sp);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory for a %ux%u image", w, h);
        return FERRY_ERR_NOMEM;
    }
    out->width = w;
    out->height = h;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t cell = options->checker;
            const float *bg = cell && ((x / cell + y / cell) & 1) ? options->background2 : options->background;
            for (int c = 0; c < 3; c++) fb[((size_t)y * w + x) * 3 + c] = bg[c];
        }
    size_t te = 0;
    for (size_t k = 0; k < sim_count; k++) {
        tex_base[k] = (uint32_t)te;
        if (!sims[k]) continue;
        const ferry_particle_system *system = ferry_particle_sim_system(sims[k]);
        for (size_t e = 0; e < system->emitter_count; e++, te++) {
            const ferry_particle_emitter *em = &system->emitters[e];
            element_grid(em->properties.texture_elements, &tex[te].cols, &tex[te].rows);
            if (options->texture && em->color_texture && em->color_texture[0])
                tex[te].img = options->texture(em->color_texture, options->user);
        }
    }

    view_axes ax3;
    camera_axes(cam, &ax3);
    float fov = cam->fov_y > 0.01f && cam->fov_y < 3.1f ? cam->fov_y : 0.7f;
    float focal = (float)h / 2 / tanf(fov / 2);
    for (size_t j = 0; j < m; j++) {
        const ferry_particle_sprite *s = &sp[j];
        const tex_view *tv = &tex[tex_base[s->system] + s->emitter];
        vtx q[4];
        bool ok = true;
        for (int c = 0; c < 4 && ok; c++) {
            float d[3];
            for (int k = 0; k < 3; k++) d[k] = s->corners[c][k] - cam->eye[k];
            float z = dot3(d, ax3.fwd);
            if (!(z > NEAR_PLANE)) {
                ok = false;
                break;
            }
            q[c].x = (float)w / 2 + dot3(d, ax3.right) / z * focal;
            q[c].y = (float)h / 2 - dot3(d, ax3.up) / z * focal;
            /* Within the element: draw_triangle's sampling finds the element from the frame. */
            q[c].u = c == 1 || c == 2 ? 1.0f : 0.0f;
            q[c].v = c < 2 ? 1.0f : 0.0f;
            ok = isfinite(q[c].x) && isfinite(q[c].y) && fabsf(q[c].x) < 1e7f && fabsf(q[c].y) < 1e7f;
        }
        if (!ok) continue;
        draw_triangle(fb, w, h, &q[0], &q[1], &q[2], tv, s->frame, s->color, s->blend);
        draw_triangle(fb, w, h, &q[0], &q[2], &q[3], tv, s->frame, s->color, s->blend);
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        for (int c = 0; c < 3; c++) {
            float v = fb[i * 3 + c];
            v = v > 0 ? (v < 1 ? v : 1) : 0; /* NaN: 0 */
            out->rgba[i * 4 + c] = (uint8_t)(v * 255 + 0.5f);
        }
        out->rgba[i * 4 + 3] = 255;
    }
    free(fb);
    free(tex);
    free(tex_base);
    ferry_particle_sprites_free(sp);
    return FERRY_OK;
}
