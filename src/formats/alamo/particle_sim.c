/* Particle simulation: emitters, emission times, closed-form motion and
 * events (death, ground contacts), birth and death emitters spawned through
 * the connections. The decisions where the specification is silent are in
 * docs/formats/alo-particle.md ("Simulation"). */
#include <ferry/particle_sim.h>

#include "../../core/core.h"
#include "../../core/core_math.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define DEFAULT_MAX_PARTICLES 100000
#define DEFAULT_MAX_EMITTERS 4096
#define DEFAULT_MAX_DEPTH 6
#define DEFAULT_MAX_RATE 20000.0
#define HARD_MAX_DEPTH 16
/* Counts of emissions are kept below this, so that they stay exact in a double. */
#define COUNT_CAP 4503599627370496.0 /* 2^52 */
/* Events (ground contacts) solved for one particle in one advance. */
#define MAX_EVENTS 64
/* A bounce slower than this (world units/second) comes to rest. */
#define REST_SPEED 1e-3
#define NONE UINT32_MAX

enum { GROUND_NOTHING = 0, GROUND_DIE = 1, GROUND_BOUNCE = 2, GROUND_STOP = 3 };
enum { SLOW_GROUND = 1, SLOW_FREEZE = 2, SLOW_LINK = 4 };

/* What one emitter of the file does, worked out once. */
typedef struct em_info {
    bool root, bursts, endless, link, wind, fixed_rot, rot_dir, gray, weather, speed_mult_use;
    double rate;        /* stream: particles/second (0: none) */
    double delay, burst_delay, skip, freeze;
    double per_burst, burst_count; /* burst_count: finite bursts (endless: ignored) */
    float life_lo, life_hi;
    float accel[3];     /* world: acceleration (object space rotated) + gravity */
    float outward, inward, bounce, speed_mult, weather_size;
    uint32_t ground, elements;
    float rscale, rrot, rcolor[4];
    int32_t death, birth;
    uint8_t slow;
} em_info;

typedef struct inst {
    bool active, attached;
    uint32_t emitter, depth, live;
    uint64_t key;
    double created, end, freeze_at;
    double next_k;
    /* Origin trajectory (world): o + ov (t - ot) + oa (t - ot)^2 / 2. */
    double ot;
    float o[3], ov[3], oa[3];
    float inherit[3]; /* velocity given to every particle (death emitters) */
} inst;

struct ferry_particle_sim {
    const ferry_particle_system *system;
    ferry_particle_sim_options opt;
    float lin[9];  /* the transform's linear part, column-major 3x3 */
    float origin[3];
    em_info *em;
    double *horizon; /* [emitter * (depth+1) + depth] */
    double now, now_target; /* now_target: the time an advance is bringing things to */
    bool started;
    unsigned warnings;
    double budget;   /* emissions left in this advance */
    /* instances */
    inst *insts;
    size_t inst_cap, inst_used;
    uint32_t *free_insts;
    size_t free_count;
    /* particles: structure of arrays */
    size_t count, cap;
    uint64_t *id;
    uint32_t *emitter, *inst_of, *child;
    uint8_t *slow;
    double *tb, *t0;
    float *x0, *y0, *z0, *u0, *v0, *w0, *ax, *ay, *az;
    float *life, *scale, *rot_factor, *angle0, *cadd;
    float *px, *py, *pz, *vx, *vy, *vz, *age;
};

/* ---- small helpers ---- */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float finite_or(ferry_particle_sim *sim, float v, float fallback)
{
    if (isfinite(v)) return v;
    sim->warnings |= FERRY_PARTICLE_SIM_WARN_NONFINITE;
    return fallback;
}

static double clamp_count(double c)
{
    if (!(c > 0)) return 0;
    return c < COUNT_CAP ? c : COUNT_CAP;
}

static void lin_apply(const float m[9], const float v[3], float out[3])
{
    float r[3];
    for (int k = 0; k < 3; k++) r[k] = m[k] * v[0] + m[3 + k] * v[1] + m[6 + k] * v[2];
    memcpy(out, r, sizeof r);
}

/* ---- emission schedule ---- */

/* Number of emissions k with emission age <= a (ages from the instance's
 * creation, skip time included). */
static double emissions_upto(const em_info *e, double a)
{
    if (!(a >= e->delay)) return 0;
    double d = a - e->delay;
    if (!e->bursts) {
        if (!(e->rate > 0)) return 0;
        return clamp_count(floor(d * e->rate) + 1);
    }
    if (!(e->per_burst > 0)) return 0;
    double bursts;
    if (e->burst_delay > 0)
        bursts = floor(d / e->burst_delay) + 1;
    else
        bursts = e->endless ? COUNT_CAP : e->burst_count; /* endless is bounded at creation */
    if (!e->endless && bursts > e->burst_count) bursts = e->burst_count;
    return clamp_count(bursts * e->per_burst);
}

static double emission_age(const em_info *e, double k)
{
    if (!e->bursts) return e->delay + k / e->rate;
    return e->delay + floor(k / e->per_burst) * e->burst_delay;
}

/* All emissions an instance will ever make (COUNT_CAP: no end). */
static double emissions_total(const em_info *e)
{
    if (e->bursts && !e->endless) return clamp_count(e->burst_count * e->per_burst);
    if (e->bursts && !(e->per_burst > 0)) return 0;
    if (!e->bursts && !(e->rate > 0)) return 0;
    return COUNT_CAP;
}

/* How long after its emission a particle of emitter e at depth d, and
 * everything spawned from it, can still be alive (INFINITY: maybe always). */
static double horizon(ferry_particle_sim *sim, uint32_t e, unsigned d)
{
    unsigned md = sim->opt.max_spawn_depth;
    double *slot = &sim->horizon[(size_t)e * (md + 1) + d];
    if (*slot >= 0) return *slot;
    *slot = INFINITY; /* while computing: a loop reached through depth stays bounded by d */
    const em_info *em = &sim->em[e];
    double life = em->life_hi;
    double h = em->freeze > 0 || !isfinite(life) ? INFINITY : life;
    if (d < md && isfinite(h)) {
        size_t n = sim->system->emitter_count;
        if (em->birth >= 0 && (size_t)em->birth < n) h = fmax(h, life + horizon(sim, (uint32_t)em->birth, d + 1));
        if (em->death >= 0 && (size_t)em->death < n) {
            const em_info *c = &sim->em[em->death];
            double span = life; /* open-ended death emitters emit for the dead particle's lifetime */
            if (c->bursts && !c->endless)
                span = fmax(0, c->delay - c->skip + fmax(0, c->burst_count - 1) * c->burst_delay);
            h = fmax(h, life + span + horizon(sim, (uint32_t)em->death, d + 1));
        }
    }
    *slot = h;
    return h;
}

/* ---- creation ---- */

#define ARRAYS(X)                                                                              \
    X(id) X(emitter) X(inst_of) X(child) X(slow) X(tb) X(t0) X(x0) X(y0) X(z0) X(u0) X(v0)     \
    X(w0) X(ax) X(ay) X(az) X(life) X(scale) X(rot_factor) X(angle0) X(px) X(py) X(pz) X(vx)   \
    X(vy) X(vz) X(age)

static void em_setup(ferry_particle_sim *sim, size_t i)
{
    const ferry_particle_emitter *src = &sim->system->emitters[i];
    const ferry_particle_properties *p = &src->properties;
    em_info *e = &sim->em[i];
    memset(e, 0, sizeof *e);
    e->bursts = p->in_bursts != 0;
    e->delay = fmax(0, finite_or(sim, p->initial_delay, 0));
    e->skip = fmax(0, finite_or(sim, p->skip_time, 0));
    e->freeze = fmax(0, finite_or(sim, p->freeze_time, 0));
    if (e->bursts) {
        e->per_burst = p->particles_per_burst;
        e->endless = p->bursts == 0 || p->bursts == UINT32_MAX;
        e->burst_count = p->bursts;
        e->burst_delay = fmax(0, finite_or(sim, p->burst_delay, 0));
        if (e->endless && e->per_burst > 0) {
            /* An endless burst train faster than the rate bound (or with no
             * delay at all) is slowed to it. */
            double min_delay = e->per_burst / sim->opt.max_rate;
            if (e->burst_delay < min_delay) {
                e->burst_delay = min_delay;
                sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_RATE;
            }
        }
    } else {
        e->rate = p->particles_per_second;
        if (e->rate > sim->opt.max_rate) {
            e->rate = sim->opt.max_rate;
            sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_RATE;
        }
    }
    /* The lifetime as the specification states it: from properties 0x0f
     * and 0x13 (the lifetime group is "redundant"); the group only when
     * 0x0f is not stored. They differ in one real system. */
    float lo, hi;
    if (ferry_particle_property_present(p, 0x0f)) {
        hi = p->lifetime;
        float r = ferry_particle_property_present(p, 0x13) ? p->randomized_lifetime : 0;
        lo = (float)((double)hi * (1 - (double)r));
        if (lo > hi) { /* a negative randomized lifetime: the same range, ordered */
            float t = lo;
            lo = hi;
            hi = t;
        }
    } else {
        ferry_particle_emitter_lifetime(src, &lo, &hi);
    }
    /* An infinite lifetime is the longest finite one (real files use
     * FLT_MAX for "forever"); NaN is 0. */
    if (isinf(lo) || isinf(hi)) sim->warnings |= FERRY_PARTICLE_SIM_WARN_NONFINITE;
    lo = isinf(lo) ? (lo > 0 ? FLT_MAX : 0) : finite_or(sim, lo, 0);
    hi = isinf(hi) ? (hi > 0 ? FLT_MAX : 0) : finite_or(sim, hi, 0);
    if (lo < 0) lo = 0;
    if (hi < lo) hi = lo;
    e->life_lo = lo;
    e->life_hi = hi;
    float acc[3];
    for (int k = 0; k < 3; k++) acc[k] = finite_or(sim, p->acceleration[k], 0);
    if (p->object_space_acceleration) lin_apply(sim->lin, acc, acc);
    acc[2] -= finite_or(sim, p->gravity, 0);
    memcpy(e->accel, acc, sizeof acc);
    e->outward = finite_or(sim, p->outward_acceleration, 0);
    e->inward = finite_or(sim, p->inward_speed, 0);
    e->ground = p->ground_interaction <= GROUND_STOP ? p->ground_interaction : GROUND_NOTHING;
    if (sim->opt.no_ground) e->ground = GROUND_NOTHING;
    e->bounce = finite_or(sim, p->bounciness, 0);
    e->wind = p->affected_by_wind != 0;
    e->link = p->link_to_system != 0;
    e->speed_mult_use = p->use_emitter_speed_mult != 0;
    e->speed_mult = finite_or(sim, p->emitter_speed_mult, 0);
    e->fixed_rot = p->fixed_rotation != 0;
    e->rot_dir = p->rotation_direction != 0;
    e->rscale = finite_or(sim, p->randomized_scale, 0);
    e->rrot = finite_or(sim, p->randomized_rotation, 0);
    for (int k = 0; k < 4; k++) e->rcolor[k] = finite_or(sim, p->randomized_color[k], 0);
    e->gray = p->randomized_is_grayscale != 0;
    e->weather = p->is_weather_particle != 0;
    e->weather_size = finite_or(sim, p->weather_cube_size, 0);
    e->elements = p->texture_elements;
    e->death = src->death_emitter;
    e->birth = src->birth_emitter;
    e->slow = (e->ground != GROUND_NOTHING ? SLOW_GROUND : 0) | (e->freeze > 0 ? SLOW_FREEZE : 0) |
              (e->link ? SLOW_LINK : 0);
}

static uint32_t inst_new(ferry_particle_sim *sim, uint32_t emitter, uint32_t depth, uint64_t key, double created)
{
    uint32_t s;
    if (sim->free_count) {
        s = sim->free_insts[--sim->free_count];
    } else if (sim->inst_used < sim->inst_cap) {
        s = (uint32_t)sim->inst_used++;
    } else {
        sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_EMITTERS;
        return NONE;
    }
    const em_info *e = &sim->em[emitter];
    sim->insts[s] = (inst){
        .active = true,
        .emitter = emitter,
        .depth = depth,
        .key = key,
        .created = created,
        .end = INFINITY,
        .freeze_at = e->freeze > 0 ? created + e->freeze - e->skip : INFINITY,
        .ot = created,
    };
    return s;
}

ferry_result ferry_particle_sim_create(const ferry_particle_system *system, const ferry_particle_sim_options *options,
                                       ferry_particle_sim **out, ferry_error *err)
{
    *out = NULL;
    if (!system || (system->emitter_count && !system->emitters)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, "", "no particle system to simulate");
        return FERRY_ERR_ARGUMENT;
    }
    ferry_particle_sim *sim = calloc(1, sizeof *sim);
    if (!sim) goto nomem;
    sim->system = system;
    if (options) sim->opt = *options;
    ferry_particle_sim_options *o = &sim->opt;
    if (!o->max_particles) o->max_particles = DEFAULT_MAX_PARTICLES;
    if (!o->max_emitters) o->max_emitters = DEFAULT_MAX_EMITTERS;
    if (!o->max_spawn_depth) o->max_spawn_depth = DEFAULT_MAX_DEPTH;
    if (o->max_spawn_depth > HARD_MAX_DEPTH) o->max_spawn_depth = HARD_MAX_DEPTH;
    if (!(o->max_rate > 0) || !isfinite(o->max_rate)) o->max_rate = DEFAULT_MAX_RATE;
    /* Sizes whose arrays could not be allocated without overflow are
     * brought down to what a process can hold. */
    if (o->max_emitters > (size_t)1 << 24) o->max_emitters = (size_t)1 << 24;
    if (o->max_particles > (size_t)1 << 28) o->max_particles = (size_t)1 << 28;
    float m[16];
    if (o->has_transform)
        memcpy(m, o->transform, sizeof m);
    else
        fy_mat4_identity(m);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) sim->lin[c * 3 + r] = finite_or(sim, m[c * 4 + r], c == r);
    for (int k = 0; k < 3; k++) {
        sim->origin[k] = finite_or(sim, m[12 + k], 0);
        o->wind[k] = finite_or(sim, o->wind[k], 0);
    }
    o->ground_z = finite_or(sim, o->ground_z, 0);

    size_t n = system->emitter_count;
    sim->em = calloc(n ? n : 1, sizeof *sim->em);
    sim->horizon = malloc((n ? n : 1) * (o->max_spawn_depth + 1) * sizeof *sim->horizon);
    sim->insts = calloc(o->max_emitters, sizeof *sim->insts);
    sim->free_insts = malloc(o->max_emitters * sizeof *sim->free_insts);
    if (!sim->em || !sim->horizon || !sim->insts || !sim->free_insts) goto nomem;
    sim->inst_cap = o->max_emitters;
    sim->cap = o->max_particles;
#define ALLOC(f)                                                       \
    sim->f = malloc(sim->cap * sizeof *sim->f);                        \
    if (!sim->f) goto nomem;
    ARRAYS(ALLOC)
#undef ALLOC
    sim->cadd = malloc(sim->cap * 4 * sizeof *sim->cadd);
    if (!sim->cadd) goto nomem;

    for (size_t i = 0; i < n; i++) em_setup(sim, i);
    for (size_t i = 0; i < n * (o->max_spawn_depth + 1); i++) sim->horizon[i] = -1;
    /* Roots: emitters no other emitter spawns. */
    size_t roots = 0;
    for (size_t i = 0; i < n; i++) {
        bool target = false;
        for (size_t j = 0; j < n && !target; j++)
            target = j != i && (sim->em[j].birth == (int32_t)i || sim->em[j].death == (int32_t)i);
        sim->em[i].root = !target;
        roots += !target;
    }
    if (n && !roots) {
        sim->warnings |= FERRY_PARTICLE_SIM_WARN_NO_ROOT;
        for (size_t i = 0; i < n; i++) sim->em[i].root = true;
    }
    for (size_t i = 0; i < n; i++) {
        if (!sim->em[i].root) continue;
        uint32_t s = inst_new(sim, (uint32_t)i, 0, i, 0);
        if (s == NONE) continue;
        memcpy(sim->insts[s].o, sim->origin, sizeof sim->origin);
    }
    *out = sim;
    return FERRY_OK;
nomem:
    ferry_particle_sim_free(sim);
    fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, "", "out of memory for the particle simulation");
    return FERRY_ERR_NOMEM;
}

void ferry_particle_sim_free(ferry_particle_sim *sim)
{
    if (!sim) return;
#define FREE(f) free(sim->f);
    ARRAYS(FREE)
#undef FREE
    free(sim->cadd);
    free(sim->em);
    free(sim->horizon);
    free(sim->insts);
    free(sim->free_insts);
    free(sim);
}

/* ---- particles ---- */

static void inst_origin(const inst *in, double t, float pos[3], float vel[3])
{
    double dt = t - in->ot;
    for (int k = 0; k < 3; k++) {
        if (pos) pos[k] = (float)(in->o[k] + in->ov[k] * dt + 0.5 * in->oa[k] * dt * dt);
        if (vel) vel[k] = (float)(in->ov[k] + in->oa[k] * dt);
    }
}

/* Position and velocity of particle i at absolute time t on its current segment. */
static void particle_at(const ferry_particle_sim *sim, size_t i, double t, float pos[3], float vel[3])
{
    float tau = (float)(t - sim->t0[i]);
    pos[0] = sim->x0[i] + sim->u0[i] * tau + 0.5f * sim->ax[i] * tau * tau;
    pos[1] = sim->y0[i] + sim->v0[i] * tau + 0.5f * sim->ay[i] * tau * tau;
    pos[2] = sim->z0[i] + sim->w0[i] * tau + 0.5f * sim->az[i] * tau * tau;
    vel[0] = sim->u0[i] + sim->ax[i] * tau;
    vel[1] = sim->v0[i] + sim->ay[i] * tau;
    vel[2] = sim->w0[i] + sim->az[i] * tau;
}

/* The first downward crossing of the ground in (t0, t0 + span], as a time
 * after t0; negative when none. */
static double ground_hit(const ferry_particle_sim *sim, size_t i, double span)
{
    double c = (double)sim->z0[i] - sim->opt.ground_z, b = sim->w0[i], a2 = 0.5 * (double)sim->az[i];
    if (c < 0) return -1; /* below the ground: only a later crossing from above counts */
    double roots[2];
    int nr = 0;
    if (a2 == 0) {
        if (b < 0) roots[nr++] = -c / b;
    } else {
        double disc = b * b - 4 * a2 * c;
        if (disc < 0) return -1;
        double sq = sqrt(disc);
        /* The numerically stable pair. */
        double q = -0.5 * (b + (b >= 0 ? sq : -sq));
        double r1 = q / a2, r2 = q != 0 ? c / q : r1;
        roots[0] = fmin(r1, r2);
        roots[1] = fmax(r1, r2);
        nr = 2;
    }
    for (int k = 0; k < nr; k++) {
        double r = roots[k];
        if (!(r >= 0) || r > span) continue;
        if (r == 0 && c == 0 && b >= 0) continue; /* leaving the ground */
        if (b + 2 * a2 * r < 0 || (b + 2 * a2 * r == 0 && r > 0)) return r;
    }
    return -1;
}

static void spawn_death(ferry_particle_sim *sim, size_t i, double td);

/* A particle is removed from the pool (swap with the last). */
static void particle_remove(ferry_particle_sim *sim, size_t i)
{
    inst *in = &sim->insts[sim->inst_of[i]];
    if (in->live) in->live--;
    size_t last = --sim->count;
    if (i != last) {
#define MOVE(f) sim->f[i] = sim->f[last];
        ARRAYS(MOVE)
#undef MOVE
        memcpy(&sim->cadd[i * 4], &sim->cadd[last * 4], 4 * sizeof *sim->cadd);
    }
}

/* Solves particle i's events up to te (ground contacts, death); false when
 * it died (then *td is when). */
static bool particle_events(ferry_particle_sim *sim, size_t i, double te, double *td)
{
    const em_info *e = &sim->em[sim->emitter[i]];
    double death = sim->tb[i] + (double)sim->life[i];
    for (int n = 0; n < MAX_EVENTS; n++) {
        double lim = fmin(te, death);
        if (e->ground != GROUND_NOTHING && lim > sim->t0[i]) {
            double r = ground_hit(sim, i, lim - sim->t0[i]);
            if (r >= 0) {
                double th = sim->t0[i] + r;
                float pos[3], vel[3];
                particle_at(sim, i, th, pos, vel);
                pos[2] = sim->opt.ground_z;
                if (e->ground == GROUND_DIE) {
                    *td = th;
                    /* The death emitter starts where it touched. */
                    sim->x0[i] = pos[0], sim->y0[i] = pos[1], sim->z0[i] = pos[2];
                    sim->u0[i] = vel[0], sim->v0[i] = vel[1], sim->w0[i] = vel[2];
                    sim->ax[i] = sim->ay[i] = sim->az[i] = 0;
                    sim->t0[i] = th;
                    return false;
                }
                float b = e->ground == GROUND_BOUNCE ? e->bounce : 0;
                float nv[3] = {vel[0] * b, vel[1] * b, -vel[2] * b};
                bool rest = !(fabsf(nv[2]) > REST_SPEED) || n == MAX_EVENTS - 1;
                sim->x0[i] = pos[0], sim->y0[i] = pos[1], sim->z0[i] = pos[2];
                sim->t0[i] = th;
                if (rest) {
                    sim->u0[i] = sim->v0[i] = sim->w0[i] = 0;
                    sim->ax[i] = sim->ay[i] = sim->az[i] = 0;
                } else {
                    sim->u0[i] = nv[0], sim->v0[i] = nv[1], sim->w0[i] = nv[2];
                }
                uint32_t c = sim->child[i];
                if (c != NONE) { /* the attached birth emitter follows the new path */
                    inst *ci = &sim->insts[c];
                    ci->ot = th;
                    ci->o[0] = sim->x0[i], ci->o[1] = sim->y0[i], ci->o[2] = sim->z0[i];
                    ci->ov[0] = sim->u0[i], ci->ov[1] = sim->v0[i], ci->ov[2] = sim->w0[i];
                    ci->oa[0] = sim->ax[i], ci->oa[1] = sim->ay[i], ci->oa[2] = sim->az[i];
                }
                continue;
            }
        }
        break;
    }
    if (death <= te) {
        *td = death;
        return false;
    }
    return true;
}

/* Writes particle i's outputs at te (no events). */
static void particle_output(ferry_particle_sim *sim, size_t i, double te)
{
    float pos[3], vel[3];
    particle_at(sim, i, te, pos, vel);
    if (sim->slow[i] & SLOW_LINK) {
        const inst *in = &sim->insts[sim->inst_of[i]];
        if (in->attached) {
            float a[3], b[3];
            inst_origin(in, fmin(te, in->end), a, NULL);
            inst_origin(in, sim->tb[i], b, NULL);
            for (int k = 0; k < 3; k++) pos[k] += a[k] - b[k];
        }
    }
    sim->px[i] = pos[0], sim->py[i] = pos[1], sim->pz[i] = pos[2];
    sim->vx[i] = vel[0], sim->vy[i] = vel[1], sim->vz[i] = vel[2];
    sim->age[i] = (float)(te - sim->tb[i]);
}

/* Brings particle i to time t; false when it died (and was removed). */
static bool particle_settle(ferry_particle_sim *sim, size_t i, double t)
{
    double te = t;
    if (sim->slow[i] & SLOW_FREEZE) te = fmin(te, sim->insts[sim->inst_of[i]].freeze_at);
    double td;
    if (!particle_events(sim, i, te, &td)) {
        spawn_death(sim, i, td);
        particle_remove(sim, i);
        return false;
    }
    particle_output(sim, i, te);
    return true;
}

static void inst_emit(ferry_particle_sim *sim, uint32_t s, double t);

/* Creates particle k of instance s, emitted at absolute time te, and brings it to t. */
static void particle_spawn(ferry_particle_sim *sim, uint32_t s, double k, double te, double t)
{
    if (sim->count >= sim->cap) {
        sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES;
        return;
    }
    inst *in = &sim->insts[s];
    const em_info *e = &sim->em[in->emitter];
    const ferry_particle_emitter *src = &sim->system->emitters[in->emitter];
    uint64_t kk = (uint64_t)k;
    /* Spawned: a hash of the instance's key and k. Not key ^ mix64(k):
     * keys are mix64 of small numbers too, and a XOR of two mixes collides
     * whenever the two pairs swap (key mix64(5) with k 25, key mix64(25)
     * with k 5); k is mixed in its own domain and added instead. */
    uint64_t id = in->depth == 0 ? ((uint64_t)in->emitter << 32) | (kk & 0xFFFFFFFFull)
                                 : (mix64(in->key + mix64(kk ^ 0xD6E8FEB86659FD93ull)) & ((1ull << 52) - 1)) |
                                       (1ull << 52);
    ferry_particle_rng rng = ferry_particle_rng_make(mix64(sim->opt.seed ^ mix64(id)));
    size_t i = sim->count++;
    in->live++;
    sim->id[i] = id;
    sim->emitter[i] = in->emitter;
    sim->inst_of[i] = s;
    sim->child[i] = NONE;
    sim->slow[i] = e->slow;
    sim->tb[i] = sim->t0[i] = te;
    float u = ferry_particle_rng_float(&rng);
    sim->life[i] = e->life_lo + (e->life_hi - e->life_lo) * u;
    float pos[3], vel[3];
    if (e->weather) {
        for (int c = 0; c < 3; c++) pos[c] = (ferry_particle_rng_float(&rng) - 0.5f) * e->weather_size;
    } else {
        ferry_particle_group_sample(&src->groups[FERRY_PARTICLE_GROUP_POSITION], &rng, pos);
    }
    ferry_particle_group_sample(&src->groups[FERRY_PARTICLE_GROUP_VELOCITY], &rng, vel);
    for (int c = 0; c < 3; c++) {
        pos[c] = finite_or(sim, pos[c], 0);
        vel[c] = finite_or(sim, vel[c], 0);
    }
    /* Outward: away from the emitter along the spawn offset (or the initial
     * velocity for a particle spawned at the emitter), fixed for its life.
     * Inward speed: towards the emitter along the same line. */
    float dir[3] = {0, 0, 0};
    double len = fy_vec3_length(pos);
    const float *from = pos;
    if (!(len > 0)) {
        len = fy_vec3_length(vel);
        from = vel;
    }
    if (len > 0 && isfinite(len))
        for (int c = 0; c < 3; c++) dir[c] = (float)(from[c] / len);
    if (from == pos)
        for (int c = 0; c < 3; c++) vel[c] -= e->inward * dir[c];
    lin_apply(sim->lin, pos, pos);
    lin_apply(sim->lin, vel, vel);
    lin_apply(sim->lin, dir, dir);
    float opos[3], ovel[3];
    inst_origin(in, te, opos, ovel);
    float acc[3];
    for (int c = 0; c < 3; c++) {
        pos[c] += opos[c];
        vel[c] += in->inherit[c];
        if (in->attached && e->speed_mult_use) vel[c] += ovel[c] * e->speed_mult;
        if (e->wind) vel[c] += sim->opt.wind[c];
        acc[c] = e->accel[c] + e->outward * dir[c];
    }
    sim->x0[i] = pos[0], sim->y0[i] = pos[1], sim->z0[i] = pos[2];
    sim->u0[i] = vel[0], sim->v0[i] = vel[1], sim->w0[i] = vel[2];
    sim->ax[i] = acc[0], sim->ay[i] = acc[1], sim->az[i] = acc[2];
    float su = ferry_particle_rng_float(&rng);
    sim->scale[i] = 1 + e->rscale * (2 * su - 1);
    float add[4];
    float g = ferry_particle_rng_float(&rng);
    for (int c = 0; c < 4; c++) {
        float r = e->gray && c < 3 ? g : ferry_particle_rng_float(&rng);
        add[c] = r * 100 * e->rcolor[c];
    }
    memcpy(&sim->cadd[i * 4], add, sizeof add);
    float ru = ferry_particle_rng_float(&rng);
    float sign = e->rot_dir && ferry_particle_rng_float(&rng) < 0.5f ? 1.0f : -1.0f; /* clockwise: negative */
    sim->rot_factor[i] = e->fixed_rot ? 0 : sign * (1 + e->rrot * (2 * ru - 1));
    sim->angle0[i] = (float)(2 * PI) * ferry_particle_rng_float(&rng);
    /* The birth emitter, attached to the particle. */
    uint32_t child = NONE;
    if (e->birth >= 0 && (size_t)e->birth < sim->system->emitter_count) {
        if (in->depth + 1 > sim->opt.max_spawn_depth) {
            sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_DEPTH;
        } else {
            child = inst_new(sim, (uint32_t)e->birth, in->depth + 1, mix64(id * 4 + 1), te);
            if (child != NONE) {
                inst *ci = &sim->insts[child];
                ci->attached = true;
                ci->o[0] = pos[0], ci->o[1] = pos[1], ci->o[2] = pos[2];
                memcpy(ci->ov, vel, sizeof vel);
                memcpy(ci->oa, acc, sizeof acc);
                ci->ot = te;
            }
        }
    }
    sim->child[i] = child;
    particle_settle(sim, i, t);
    if (child != NONE) inst_emit(sim, child, t);
}

static void spawn_death(ferry_particle_sim *sim, size_t i, double td)
{
    uint32_t c = sim->child[i];
    if (c != NONE) sim->insts[c].end = fmin(sim->insts[c].end, td);
    const em_info *e = &sim->em[sim->emitter[i]];
    if (e->death < 0 || (size_t)e->death >= sim->system->emitter_count) return;
    uint32_t depth = sim->insts[sim->inst_of[i]].depth + 1;
    if (depth > sim->opt.max_spawn_depth) {
        sim->warnings |= FERRY_PARTICLE_SIM_WARN_MAX_DEPTH;
        return;
    }
    float pos[3], vel[3];
    particle_at(sim, i, td, pos, vel);
    uint32_t s = inst_new(sim, (uint32_t)e->death, depth, mix64(sim->id[i] * 4 + 2), td);
    if (s == NONE) return;
    inst *in = &sim->insts[s];
    const em_info *ce = &sim->em[e->death];
    memcpy(in->o, pos, sizeof pos);
    if (ce->speed_mult_use)
        for (int k = 0; k < 3; k++) in->inherit[k] = vel[k] * ce->speed_mult;
    if (!(ce->bursts && !ce->endless)) in->end = td + (double)sim->life[i];
    /* Emitted now, up to the current time (the caller's loop is at it). */
    inst_emit(sim, s, sim->now_target);
}

/* Emits instance s's particles due up to time t. */
static void inst_emit(ferry_particle_sim *sim, uint32_t s, double t)
{
    inst *in = &sim->insts[s];
    const em_info *e = &sim->em[in->emitter];
    double stop = fmin(t, fmin(in->end, in->freeze_at));
    double a_emit = stop - in->created + e->skip;
    double k_hi = emissions_upto(e, a_emit);
    /* Counts stop at 2^52 (a 20,000/s stream after 7 years): past it the
     * schedule would stand still, so say so. */
    if (k_hi >= COUNT_CAP && emissions_total(e) >= COUNT_CAP) sim->warnings |= FERRY_PARTICLE_SIM_WARN_SKIPPED;
    if (in->next_k >= k_hi) return;
    /* Emissions whose particles and descendants are all over by t are
     * never created: exact, since each particle's draws are its own. */
    double h = horizon(sim, in->emitter, in->depth);
    if (isfinite(h)) {
        double k_dead = emissions_upto(e, t - in->created + e->skip - h);
        if (k_dead > in->next_k) in->next_k = fmin(k_dead, k_hi);
    }
    double n = k_hi - in->next_k;
    double cap = (double)sim->cap;
    if (n > cap) {
        in->next_k = k_hi - cap;
        sim->warnings |= FERRY_PARTICLE_SIM_WARN_SKIPPED;
    }
    while (in->next_k < k_hi) {
        if (sim->budget <= 0) {
            sim->warnings |= FERRY_PARTICLE_SIM_WARN_SKIPPED;
            in->next_k = k_hi;
            break;
        }
        sim->budget--;
        double k = in->next_k;
        in->next_k = k + 1;
        double te = in->created - e->skip + emission_age(e, k);
        particle_spawn(sim, s, k, te, t);
        in = &sim->insts[s]; /* (the array never moves; kept for clarity) */
    }
}

/* ---- advancing ---- */

/* Every live particle: the closed form at its age, in one pass over the
 * arrays; deaths and the slow cases are looked at after. (With baseline
 * x86-64 SSE2, GCC finds vectorising it unprofitable: the times are
 * doubles.) */
static void motion_pass(ferry_particle_sim *sim, double time)
{
    size_t n = sim->count;
    float *restrict px = sim->px, *restrict py = sim->py, *restrict pz = sim->pz;
    float *restrict vx = sim->vx, *restrict vy = sim->vy, *restrict vz = sim->vz, *restrict age = sim->age;
    const double *restrict tb = sim->tb, *restrict t0 = sim->t0;
    const float *restrict x0 = sim->x0, *restrict y0 = sim->y0, *restrict z0 = sim->z0;
    const float *restrict u0 = sim->u0, *restrict v0 = sim->v0, *restrict w0 = sim->w0;
    const float *restrict ax = sim->ax, *restrict ay = sim->ay, *restrict az = sim->az;
    for (size_t i = 0; i < n; i++) {
        float tau = (float)(time - t0[i]);
        float h = 0.5f * tau * tau;
        px[i] = x0[i] + u0[i] * tau + ax[i] * h;
        py[i] = y0[i] + v0[i] * tau + ay[i] * h;
        pz[i] = z0[i] + w0[i] * tau + az[i] * h;
        vx[i] = u0[i] + ax[i] * tau;
        vy[i] = v0[i] + ay[i] * tau;
        vz[i] = w0[i] + az[i] * tau;
        age[i] = (float)(time - tb[i]);
    }
}

void ferry_particle_sim_advance(ferry_particle_sim *sim, double time)
{
    if (!sim || !isfinite(time) || (sim->started && time < sim->now)) return;
    sim->now_target = time;
    sim->budget = 8.0 * (double)sim->cap;
    motion_pass(sim, time);
    for (size_t i = 0; i < sim->count;) {
        if (!sim->slow[i] && (double)sim->tb[i] + (double)sim->life[i] > time) {
            i++;
            continue;
        }
        if (particle_settle(sim, i, time)) i++;
    }
    for (size_t s = 0; s < sim->inst_used; s++)
        if (sim->insts[s].active) inst_emit(sim, (uint32_t)s, time);
    for (size_t s = 0; s < sim->inst_used; s++) {
        inst *in = &sim->insts[s];
        if (!in->active || in->live) continue;
        const em_info *e = &sim->em[in->emitter];
        if (in->next_k >= emissions_total(e) || time >= in->end || time >= in->freeze_at) {
            in->active = false;
            sim->free_insts[sim->free_count++] = (uint32_t)s;
        }
    }
    sim->now = time;
    sim->started = true;
}

double ferry_particle_sim_time(const ferry_particle_sim *sim) { return sim ? sim->now : 0; }
const ferry_particle_system *ferry_particle_sim_system(const ferry_particle_sim *sim) { return sim ? sim->system : NULL; }
unsigned ferry_particle_sim_warnings(const ferry_particle_sim *sim) { return sim ? sim->warnings : 0; }

const char *ferry_particle_sim_warning_text(unsigned bit)
{
    switch (bit) {
    case FERRY_PARTICLE_SIM_WARN_MAX_PARTICLES: return "particle limit reached: some particles were not created";
    case FERRY_PARTICLE_SIM_WARN_MAX_EMITTERS:
        return "emitter limit reached: some birth/death emitters were not started";
    case FERRY_PARTICLE_SIM_WARN_MAX_DEPTH:
        return "spawn depth limit reached (a connection loop?): some birth/death emitters were not started";
    case FERRY_PARTICLE_SIM_WARN_MAX_RATE: return "an emission rate over the limit was bounded";
    case FERRY_PARTICLE_SIM_WARN_SKIPPED: return "more emissions in one step than the work bound: some were left out";
    case FERRY_PARTICLE_SIM_WARN_NONFINITE: return "NaN or infinite values were replaced by 0";
    case FERRY_PARTICLE_SIM_WARN_NO_ROOT: return "every emitter is a connection target: all were started";
    default: return NULL;
    }
}

size_t ferry_particle_sim_count(const ferry_particle_sim *sim) { return sim ? sim->count : 0; }

void ferry_particle_sim_get_arrays(const ferry_particle_sim *sim, ferry_particle_sim_arrays *out)
{
    memset(out, 0, sizeof *out);
    if (!sim) return;
    out->count = sim->count;
    out->px = sim->px, out->py = sim->py, out->pz = sim->pz;
    out->vx = sim->vx, out->vy = sim->vy, out->vz = sim->vz;
    out->age = sim->age, out->lifetime = sim->life;
    out->id = sim->id;
    out->emitter = sim->emitter;
}

/* ---- appearance ---- */

/* Integral of a float track over [0, f] (f a fraction of the lifetime),
 * segment by segment as ferry_particle_track_value joins them. */
static double track_integral(const ferry_particle_track *t, double f)
{
    size_t n = t->keys ? t->key_count : 0;
    double sum = 0, x1 = 0, y1 = t->first;
    for (size_t i = 1; i <= n + 1 && x1 < f; i++) {
        double x2 = i <= n ? t->keys[i - 1].time : 1, y2 = i <= n ? t->keys[i - 1].value : t->last;
        if (x2 > x1) {
            double w = x2 - x1, s = fmin(1, (f - x1) / w);
            if (s > 0) {
                if (t->interpolation == FERRY_PARTICLE_STEP)
                    sum += w * y1 * s;
                else if (t->interpolation == FERRY_PARTICLE_COSINE)
                    sum += w * (y1 * s + (y2 - y1) / 2 * (s - sin(PI * s) / PI));
                else
                    sum += w * (y1 * s + (y2 - y1) * s * s / 2);
            }
            x1 = x2;
        }
        if (x2 >= x1) y1 = y2;
    }
    if (f > 1) sum += (f - 1) * t->last;
    return isfinite(sum) ? sum : 0;
}

void ferry_particle_sim_get(const ferry_particle_sim *sim, size_t i, ferry_particle_state *out)
{
    memset(out, 0, sizeof *out);
    if (!sim || i >= sim->count) return;
    const ferry_particle_emitter *src = &sim->system->emitters[sim->emitter[i]];
    const em_info *e = &sim->em[sim->emitter[i]];
    out->id = sim->id[i];
    out->emitter = sim->emitter[i];
    out->depth = sim->insts[sim->inst_of[i]].depth;
    out->birth_time = sim->tb[i];
    out->position[0] = sim->px[i], out->position[1] = sim->py[i], out->position[2] = sim->pz[i];
    out->velocity[0] = sim->vx[i], out->velocity[1] = sim->vy[i], out->velocity[2] = sim->vz[i];
    out->age = sim->age[i];
    out->lifetime = sim->life[i];
    double life = sim->life[i];
    float f = life > 0 ? (float)fmin(1, fmax(0, sim->age[i] / life)) : 1;
    out->size = ferry_particle_emitter_track_value(src, FERRY_PARTICLE_TRACK_SIZE, f) * sim->scale[i];
    for (int c = 0; c < 4; c++) {
        float v = (ferry_particle_emitter_track_value(src, (unsigned)c, f) + sim->cadd[i * 4 + c]) / 255.0f;
        out->color[c] = v > 0 ? (v < 1 ? v : 1) : 0; /* NaN: 0 */
    }
    double spin = life > 0 && isfinite(life) ? life * track_integral(&src->tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED], f)
                                             : (double)sim->age[i] * src->tracks[FERRY_PARTICLE_TRACK_ROTATION_SPEED].first;
    double rot = sim->angle0[i] + sim->rot_factor[i] * spin;
    out->rotation = isfinite(rot) ? (float)fmod(rot, 2 * PI) : 0;
    float fr = floorf(ferry_particle_emitter_track_value(src, FERRY_PARTICLE_TRACK_TEXTURE_INDEX, f));
    uint32_t elements = e->elements ? e->elements : 1;
    out->frame = fr >= 0 && fr < (float)elements ? (uint32_t)fr : fr >= (float)elements ? elements - 1 : 0;
}

bool ferry_particle_sim_bounds(const ferry_particle_sim *sim, float min[3], float max[3])
{
    bool any = false;
    for (size_t i = 0; sim && i < sim->count; i++) {
        ferry_particle_state p;
        ferry_particle_sim_get(sim, i, &p);
        if (!(p.color[3] >= 0.05f)) continue; /* (nearly) invisible */
        float r = fabsf(p.size) / 2 * sqrtf(p.color[3]);
        if (!isfinite(r)) continue;
        bool ok = true;
        for (int k = 0; k < 3; k++) ok = ok && isfinite(p.position[k]);
        if (!ok) continue;
        for (int k = 0; k < 3; k++) {
            float lo = p.position[k] - r, hi = p.position[k] + r;
            if (!any || lo < min[k]) min[k] = lo;
            if (!any || hi > max[k]) max[k] = hi;
        }
        any = true;
    }
    return any;
}
