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

/* Texture: the element's rectangle in a grid of ceil(sqrt(n)) columns. */
typedef struct tex_view {
    const ferry_image *img;
    uint32_t cols, rows;
} tex_view;

static void sample(const tex_view *t, uint32_t frame, float u, float v, float out[4])
{
    if (!t->img || !t->img->rgba || !t->img->width || !t->img->height) {
        /* The soft round sprite drawn when the texture is missing. */
        float x = 2 * u - 1, y = 2 * v - 1, r2 = x * x + y * y;
        /* A glow, bright in the middle, faint at half the radius (real
         * particle textures cover only part of their square). */
        float a = r2 < 1 ? expf(-4 * r2) * (1 - r2) : 0;
        out[0] = out[1] = out[2] = 1;
        out[3] = a;
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

enum { BLEND_OPAQUE, BLEND_ADD, BLEND_ALPHA, BLEND_MODULATE, BLEND_DARKEN };

static int blend_class(const ferry_particle_properties *p)
{
    if (p->is_heat_particle) return BLEND_ALPHA; /* the specification's override */
    switch (p->blend_mode) {
    case 0: return BLEND_OPAQUE;
    case 1: case 4: return BLEND_ADD;
    case 3: case 6: return BLEND_MODULATE;
    case 8: case 9: return BLEND_DARKEN;
    default: return BLEND_ALPHA; /* 2, 5, 7, 10..13 */
    }
}

typedef struct vtx {
    float x, y, u, v;
} vtx;

static void draw_triangle(float *fb, uint32_t w, uint32_t h, const vtx *a, const vtx *b, const vtx *c,
                          const tex_view *t, uint32_t frame, const float color[4], int blend)
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
            case BLEND_OPAQUE:
                if (s[3] >= 0.5f) d[0] = r, d[1] = g, d[2] = bl;
                break;
            case BLEND_ADD:
                d[0] += r * al, d[1] += g * al, d[2] += bl * al;
                break;
            case BLEND_MODULATE:
                d[0] *= 1 - al + r * al, d[1] *= 1 - al + g * al, d[2] *= 1 - al + bl * al;
                break;
            case BLEND_DARKEN:
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
    size_t n = 0, ne = 0;
    for (size_t k = 0; k < sim_count; k++) {
        if (!sims[k]) continue;
        n += ferry_particle_sim_count(sims[k]);
        ne += ferry_particle_sim_system(sims[k])->emitter_count;
    }
    float *fb = malloc((size_t)w * h * 3 * sizeof *fb);
    sprite *order = malloc((n ? n : 1) * sizeof *order);
    ferry_particle_state *states = malloc((n ? n : 1) * sizeof *states);
    uint32_t *tex_base = malloc((sim_count ? sim_count : 1) * sizeof *tex_base); /* each system's first tex */
    uint32_t *sys_of = malloc((n ? n : 1) * sizeof *sys_of);
    out->rgba = malloc((size_t)w * h * 4);
    tex_view *tex = calloc(ne ? ne : 1, sizeof *tex);
    if (!fb || !order || !states || !out->rgba || !tex || !tex_base || !sys_of || n > UINT32_MAX) {
        free(fb);
        free(order);
        free(states);
        free(tex);
        free(tex_base);
        free(sys_of);
        free(out->rgba);
        out->rgba = NULL;
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
            uint32_t elements = em->properties.texture_elements ? em->properties.texture_elements : 1;
            uint32_t cols = (uint32_t)ceil(sqrt((double)elements));
            if (cols < 1) cols = 1;
            tex[te].cols = cols;
            tex[te].rows = (elements + cols - 1) / cols;
            if (options->texture && em->color_texture && em->color_texture[0])
                tex[te].img = options->texture(em->color_texture, options->user);
        }
    }

    const ferry_particle_camera *cam = &options->camera;
    float fwd[3], right[3], up[3];
    for (int k = 0; k < 3; k++) fwd[k] = cam->target[k] - cam->eye[k];
    normalize3(fwd);
    cross3(fwd, cam->up, right);
    normalize3(right);
    cross3(right, fwd, up);
    float fov = cam->fov_y > 0.01f && cam->fov_y < 3.1f ? cam->fov_y : 0.7f;
    float focal = (float)h / 2 / tanf(fov / 2);
    float near = 1e-3f;

    size_t m = 0, base = 0;
    for (size_t k = 0; k < sim_count; k++) {
        size_t count = sims[k] ? ferry_particle_sim_count(sims[k]) : 0;
        for (size_t i = 0; i < count; i++) {
            size_t at = base + i;
            ferry_particle_sim_get(sims[k], i, &states[at]);
            sys_of[at] = (uint32_t)k;
            float d[3];
            for (int c = 0; c < 3; c++) d[c] = states[at].position[c] - cam->eye[c];
            float z = dot3(d, fwd);
            if (!(z > near) || !isfinite(states[at].size) || !(states[at].color[3] > 0)) continue;
            order[m++] = (sprite){z, (uint32_t)at};
        }
        base += count;
    }
    qsort(order, m, sizeof *order, by_depth);
    for (size_t j = 0; j < m; j++) {
        const ferry_particle_state *p = &states[order[j].index];
        uint32_t k = sys_of[order[j].index];
        const ferry_particle_emitter *em = &ferry_particle_sim_system(sims[k])->emitters[p->emitter];
        const tex_view *tv = &tex[tex_base[k] + p->emitter];
        int blend = blend_class(&em->properties);
        float hs = fabsf(p->size) / 2;
        float cr = cosf(p->rotation), sr = sinf(p->rotation);
        float ax[3], ay[3];
        if (em->properties.not_billboarded) {
            const float X[3] = {1, 0, 0}, Y[3] = {0, 1, 0};
            for (int k = 0; k < 3; k++) {
                ax[k] = (cr * X[k] + sr * Y[k]) * hs;
                ay[k] = (-sr * X[k] + cr * Y[k]) * hs;
            }
        } else {
            for (int k = 0; k < 3; k++) {
                ax[k] = (cr * right[k] + sr * up[k]) * hs;
                ay[k] = (-sr * right[k] + cr * up[k]) * hs;
            }
        }
        /* A tail stretches the sprite backwards along its velocity. */
        float back[3] = {0, 0, 0};
        if (em->properties.has_tail && isfinite(em->properties.tail_size))
            for (int k = 0; k < 3; k++) back[k] = -p->velocity[k] * em->properties.tail_size * 0.05f;
        vtx q[4];
        bool ok = true;
        static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 4 && ok; c++) {
            float wp[3], d[3];
            for (int k = 0; k < 3; k++) {
                wp[k] = p->position[k] + corner[c][0] * ax[k] + corner[c][1] * ay[k];
                if (corner[c][1] < 0) wp[k] += back[k];
                d[k] = wp[k] - cam->eye[k];
            }
            float z = dot3(d, fwd);
            if (!(z > near)) {
                ok = false;
                break;
            }
            q[c].x = (float)w / 2 + dot3(d, right) / z * focal;
            q[c].y = (float)h / 2 - dot3(d, up) / z * focal;
            q[c].u = (corner[c][0] + 1) / 2;
            q[c].v = (1 - corner[c][1]) / 2;
            ok = isfinite(q[c].x) && isfinite(q[c].y) && fabsf(q[c].x) < 1e7f && fabsf(q[c].y) < 1e7f;
        }
        if (!ok) continue;
        draw_triangle(fb, w, h, &q[0], &q[1], &q[2], tv, p->frame, p->color, blend);
        draw_triangle(fb, w, h, &q[0], &q[2], &q[3], tv, p->frame, p->color, blend);
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
    free(order);
    free(states);
    free(tex);
    free(tex_base);
    free(sys_of);
    return FERRY_OK;
}
