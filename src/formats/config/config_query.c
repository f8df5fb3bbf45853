/* ferry: configs: reading either form, lookups by class path, validation,
 * and the .rvmat material view. docs/formats/config.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

bool fy_cfg_name_eq(const char *a, const char *b)
{
    if (!a || !b) return false;
    for (; *a && *b; a++, b++)
        if (lower((unsigned char)*a) != lower((unsigned char)*b)) return false;
    return *a == *b;
}

static bool name_eq_n(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!a[i] || lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return false;
    return a[n] == '\0';
}

void fy_cfg_class_path(const ferry_config_class *cls, char *out, size_t size)
{
    const ferry_config_class *chain[FERRY_CONFIG_MAX_DEPTH + 2];
    size_t n = 0;
    for (const ferry_config_class *c = cls; c && c->owner && n < FERRY_CONFIG_MAX_DEPTH + 2; c = c->owner) chain[n++] = c;
    size_t len = 0;
    out[0] = '\0';
    while (n-- > 0 && len + 1 < size) {
        int w = snprintf(out + len, size - len, "%s%s", len ? "/" : "", chain[n]->name ? chain[n]->name : "");
        if (w < 0) break;
        len += (size_t)w;
    }
}

ferry_config *fy_cfg_new(const uint8_t *data, size_t size, const ferry_read_options *options, ferry_error *err)
{
    (void)data;
    /* A config's tree is larger than its bytes: an entry of 4 bytes of text
     * ("a=1;") or an array item of 2 bytes of raP is a record of 50-90
     * bytes. The default limit is taken for 4 times the input (64 times it
     * plus 1 MiB; a caller's limit is used as given). */
    size_t scaled = size > SIZE_MAX / 4 ? SIZE_MAX : size * 4;
    ferry_arena *arena = fy_arena_create_sized(fy_default_memory_limit(options, scaled), 4096);
    ferry_config *cfg = arena ? ferry_arena_alloc(arena, sizeof *cfg) : NULL;
    if (!cfg) {
        ferry_arena_destroy(arena);
        fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "cannot create the config's arena");
        return NULL;
    }
    cfg->arena = arena;
    cfg->root.name = "";
    cfg->root.parent = "";
    return cfg;
}

ferry_result ferry_config_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                               ferry_config **out, ferry_error *err)
{
    if (out) *out = NULL;
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!out || (!data && size)) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_config_read: NULL data or out");
        return FERRY_ERR_ARGUMENT;
    }
    if (!data) data = (const uint8_t *)"";
    ferry_config *cfg = fy_cfg_new(data, size, options, err);
    if (!cfg) return FERRY_ERR_NOMEM;
    ferry_result rc = size >= 4 && memcmp(data, "\0raP", 4) == 0 ? fy_cfg_read_rap(cfg, data, size, err)
                                                                 : fy_cfg_read_text(cfg, data, size, err);
    if (rc != FERRY_OK) {
        ferry_config_free(cfg);
        return rc;
    }
    *out = cfg;
    return FERRY_OK;
}

void ferry_config_free(ferry_config *config)
{
    if (config) ferry_arena_destroy(config->arena);
}

/* ---- lookups ---- */

static const ferry_config_entry *find_here(const ferry_config_class *cls, const char *name, size_t len)
{
    /* the last definition wins, as when the engine reads a class */
    for (size_t i = cls->entry_count; i-- > 0;) {
        const ferry_config_entry *e = &cls->entries[i];
        if (e->kind != FERRY_CONFIG_DELETE && e->name && name_eq_n(e->name, name, len)) return e;
    }
    return NULL;
}

static const ferry_config_entry *find_inherit(const ferry_config *config, const ferry_config_class *cls,
                                              const char *name, size_t len, bool inherit)
{
    for (int hops = 0; cls && hops <= 256; hops++) {
        const ferry_config_entry *e = find_here(cls, name, len);
        if (e || !inherit) return e;
        cls = ferry_config_base(config, cls);
    }
    return NULL;
}

const ferry_config_class *ferry_config_base(const ferry_config *config, const ferry_config_class *cls)
{
    (void)config;
    if (!cls || !cls->parent || !*cls->parent) return NULL;
    /* the scopes from the class's owner outwards; in each, classes before it */
    const ferry_config_class *child = cls;
    for (const ferry_config_class *scope = cls->owner; scope; child = scope, scope = scope->owner) {
        size_t limit = scope->entry_count;
        for (size_t i = 0; i < scope->entry_count; i++)
            if (scope->entries[i].cls == child) limit = i;
        for (size_t i = limit; i-- > 0;) {
            const ferry_config_entry *e = &scope->entries[i];
            if (e->kind == FERRY_CONFIG_CLASS && e->cls && e->cls != cls && fy_cfg_name_eq(e->name, cls->parent))
                return e->cls;
        }
    }
    return NULL;
}

const ferry_config_entry *ferry_config_find(const ferry_config *config, const ferry_config_class *from,
                                            const char *path, bool inherit)
{
    if (!config || !path) return NULL;
    const ferry_config_class *cls = from ? from : &config->root;
    const ferry_config_entry *e = NULL;
    for (;;) {
        while (*path == '/') path++;
        size_t len = strcspn(path, "/");
        if (!len) return e;
        e = find_inherit(config, cls, path, len, inherit);
        if (!e) return NULL;
        path += len;
        while (*path == '/') path++;
        if (!*path) return e;
        if (e->kind != FERRY_CONFIG_CLASS || !e->cls) return NULL;
        cls = e->cls;
    }
}

const ferry_config_class *ferry_config_find_class(const ferry_config *config, const ferry_config_class *from,
                                                  const char *path)
{
    if (!config || !path) return NULL;
    if (!*path) return from ? from : &config->root;
    const ferry_config_entry *e = ferry_config_find(config, from, path, false);
    return e && e->kind == FERRY_CONFIG_CLASS ? e->cls : NULL;
}

const char *ferry_config_value_string(const ferry_config_value *v)
{
    return v && (v->type == FERRY_CONFIG_STRING || v->type == FERRY_CONFIG_EXPRESSION) ? v->string : NULL;
}

bool ferry_config_value_number(const ferry_config_value *v, double *number)
{
    if (!v) return false;
    double d;
    switch (v->type) {
    case FERRY_CONFIG_FLOAT: d = v->f; break;
    case FERRY_CONFIG_INT:
    case FERRY_CONFIG_INT64: d = (double)v->i; break;
    case FERRY_CONFIG_STRING: {
        if (!v->string || !*v->string) return false;
        char *end = NULL;
        d = strtod(v->string, &end);
        if (!end || *end) return false;
        break;
    }
    default: return false;
    }
    if (number) *number = d;
    return true;
}

const char *ferry_config_type_name(uint8_t type)
{
    switch (type) {
    case FERRY_CONFIG_STRING: return "string";
    case FERRY_CONFIG_FLOAT: return "float";
    case FERRY_CONFIG_INT: return "int";
    case FERRY_CONFIG_ARRAY: return "array";
    case FERRY_CONFIG_EXPRESSION: return "expression";
    case FERRY_CONFIG_INT64: return "int64";
    default: return NULL;
    }
}

/* ---- validation ---- */

static void check_value(const ferry_config_value *v, const ferry_config_entry *e, const char *path,
                        ferry_diagnostics *diags, size_t *errors, int depth)
{
    if (v->type == FERRY_CONFIG_FLOAT && !isfinite(v->f)) {
        fy_diag_add(diags, FERRY_SEVERITY_ERROR, e->offset, path, "non-finite-float", "%s: a float that is %s",
                    e->name, isnan(v->f) ? "NaN" : "infinite");
        ++*errors;
    }
    if (v->type == FERRY_CONFIG_ARRAY && depth < FERRY_CONFIG_MAX_DEPTH)
        for (size_t i = 0; i < v->count; i++) check_value(&v->items[i], e, path, diags, errors, depth + 1);
}

/* Classes (and external declarations) and values are two name spaces. */
static bool class_like(const ferry_config_entry *e)
{
    return e->kind == FERRY_CONFIG_CLASS || e->kind == FERRY_CONFIG_EXTERNAL;
}

static int cmp_names(const void *pa, const void *pb)
{
    const ferry_config_entry *a = *(const ferry_config_entry *const *)pa, *b = *(const ferry_config_entry *const *)pb;
    if (class_like(a) != class_like(b)) return class_like(a) ? 1 : -1;
    for (const char *x = a->name, *y = b->name;; x++, y++) {
        int cx = lower((unsigned char)*x), cy = lower((unsigned char)*y);
        if (cx != cy) return cx < cy ? -1 : 1;
        if (!cx) break;
    }
    return a < b ? -1 : a > b; /* file order within a name */
}

/* A name given twice in one class: the entries sorted by name space and
 * name (n log n, whatever the class's size), each later one of a run
 * reported, but a class defined after its external declaration. */
static void check_duplicates(const ferry_config_class *cls, const char *path, ferry_diagnostics *diags)
{
    if (cls->entry_count < 2) return;
    const ferry_config_entry **sorted = malloc(cls->entry_count * sizeof *sorted);
    if (!sorted) return;
    size_t n = 0;
    for (size_t i = 0; i < cls->entry_count; i++)
        if (cls->entries[i].kind != FERRY_CONFIG_DELETE && cls->entries[i].name) sorted[n++] = &cls->entries[i];
    qsort(sorted, n, sizeof *sorted, cmp_names);
    bool run_has_class = false; /* an earlier entry of this run is a class with a body */
    for (size_t i = 0; i < n; i++) {
        const ferry_config_entry *e = sorted[i];
        bool same = i && class_like(e) == class_like(sorted[i - 1]) && fy_cfg_name_eq(e->name, sorted[i - 1]->name);
        if (!same) run_has_class = false;
        bool dup = same && (e->kind != FERRY_CONFIG_CLASS || run_has_class);
        if (e->kind == FERRY_CONFIG_CLASS) run_has_class = true;
        if (dup)
            fy_diag_add(diags, FERRY_SEVERITY_WARNING, e->offset, path, "duplicate-name",
                        "%s is defined twice in this class (the engine keeps the last)", e->name);
    }
    free(sorted);
}

static void check_class(const ferry_config *cfg, const ferry_config_class *cls, uint64_t at,
                        ferry_diagnostics *diags, size_t *errors, int depth)
{
    char path[96];
    fy_cfg_class_path(cls, path, sizeof path);
    if (cls->owner && cls->parent && *cls->parent && !ferry_config_base(cfg, cls))
        fy_diag_add(diags, FERRY_SEVERITY_WARNING, at, path,
                    "base-not-found",
                    "class %s: its base class %s is not defined before it in this file (another config may define it)",
                    cls->name, cls->parent);
    check_duplicates(cls, path, diags);
    for (size_t i = 0; i < cls->entry_count; i++) {
        const ferry_config_entry *e = &cls->entries[i];
        if (e->kind == FERRY_CONFIG_VALUE || e->kind == FERRY_CONFIG_ARRAY_ENTRY ||
            e->kind == FERRY_CONFIG_ARRAY_APPEND)
            check_value(&e->value, e, path, diags, errors, 0);
        if (e->kind == FERRY_CONFIG_CLASS && e->cls && depth < FERRY_CONFIG_MAX_DEPTH)
            check_class(cfg, e->cls, e->offset, diags, errors, depth + 1);
    }
}

size_t ferry_config_validate(const ferry_config *config, const ferry_config_validate_options *options,
                             ferry_diagnostics *diags)
{
    (void)options;
    if (!config || !diags) return 0;
    size_t errors = 0;
    if (config->binarized) {
        if (config->header[0] != 0 || config->header[1] != 8)
            fy_diag_add(diags, FERRY_SEVERITY_WARNING, 4, "header", "header-fields",
                        "the header's u32 fields are %u and %u (every file seen has 0 and 8)", config->header[0],
                        config->header[1]);
        if (!config->canonical)
            fy_diag_add(diags, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "", "layout",
                        "the class bodies are not laid out depth first with matching end offsets, as every tool "
                        "writes them: a rewrite lays them out so and differs from the file");
        if (config->trailer_size)
            fy_diag_add(diags, FERRY_SEVERITY_WARNING, FERRY_NO_OFFSET, "enums", "trailing-bytes",
                        "%zu bytes after the enum table (kept)", config->trailer_size);
    }
    check_class(config, &config->root, FERRY_NO_OFFSET, diags, &errors, 0);
    return errors;
}

/* ---- rvmat ---- */

const char *ferry_rvmat_role_name(uint8_t role)
{
    switch (role) {
    case FERRY_RVMAT_NORMAL: return "normal";
    case FERRY_RVMAT_SPECULAR: return "specular";
    case FERRY_RVMAT_DETAIL: return "detail";
    case FERRY_RVMAT_MACRO: return "macro";
    case FERRY_RVMAT_AMBIENT: return "ambient shadow";
    case FERRY_RVMAT_COLOUR: return "colour";
    case FERRY_RVMAT_ENVIRONMENT: return "environment";
    case FERRY_RVMAT_FRESNEL: return "fresnel";
    case FERRY_RVMAT_THERMAL: return "thermal";
    default: return "other";
    }
}

static bool ends_with_ci(const char *s, size_t len, const char *tail)
{
    size_t n = strlen(tail);
    return len >= n && name_eq_n(tail, s + len - n, n);
}

/* The role a texture's name says: the suffix before the extension
 * ("_nohq.paa"), or a procedural texture's last argument
 * ("#(argb,8,8,3)color(0.5,0.5,1,1,NOHQ)"). */
static uint8_t role_from_suffix(const char *tag, size_t len)
{
    static const struct {
        const char *suffix;
        uint8_t role;
    } table[] = {
        {"_nohq", FERRY_RVMAT_NORMAL}, {"_nopx", FERRY_RVMAT_NORMAL},  {"_no", FERRY_RVMAT_NORMAL},
        {"_normalmap", FERRY_RVMAT_NORMAL}, {"_smdi", FERRY_RVMAT_SPECULAR}, {"_sm", FERRY_RVMAT_SPECULAR},
        {"_cdt", FERRY_RVMAT_DETAIL}, {"_dt", FERRY_RVMAT_DETAIL},      {"_mc", FERRY_RVMAT_MACRO},
        {"_as", FERRY_RVMAT_AMBIENT},  {"_co", FERRY_RVMAT_COLOUR},     {"_ca", FERRY_RVMAT_COLOUR},
        {"_ti", FERRY_RVMAT_THERMAL},  {"_env", FERRY_RVMAT_ENVIRONMENT},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (ends_with_ci(tag, len, table[i].suffix)) return table[i].role;
    return FERRY_RVMAT_OTHER;
}

static uint8_t texture_role(const char *tex)
{
    if (!tex || !*tex) return FERRY_RVMAT_OTHER;
    size_t len = strlen(tex);
    if (tex[0] == '#') {
        const char *open = strchr(tex, ')');
        if (open && strncmp(open + 1, "fresnel", 7) == 0) return FERRY_RVMAT_FRESNEL;
        /* the last argument of color(...), e.g. NOHQ, SMDI, DT, MC, AS, CO */
        const char *close = strrchr(tex, ')');
        const char *comma = NULL;
        for (const char *q = tex; close && q < close; q++)
            if (*q == ',') comma = q;
        if (!comma || !close || comma < open) return FERRY_RVMAT_OTHER;
        char tag[16] = "_";
        size_t n = (size_t)(close - comma - 1);
        if (n == 0 || n >= sizeof tag - 1) return FERRY_RVMAT_OTHER;
        memcpy(tag + 1, comma + 1, n);
        tag[n + 1] = '\0';
        return role_from_suffix(tag, n + 1);
    }
    size_t end = len;
    for (size_t i = len; i-- > 0;) {
        if (tex[i] == '.') {
            end = i;
            break;
        }
        if (tex[i] == '\\' || tex[i] == '/') break;
    }
    if (strstr(tex, "envmap") || strstr(tex, "EnvMap")) return FERRY_RVMAT_ENVIRONMENT;
    return role_from_suffix(tex, end);
}

static bool starts_with_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (!*s || lower((unsigned char)*s) != lower((unsigned char)*prefix)) return false;
    return true;
}

/* Pixel shaders whose Stage1 is the normal map (docs/formats/config.md#rvmat). */
static bool normal_mapped_shader(const char *ps)
{
    if (!ps) return false;
    static const char *const prefixes[] = {"NormalMap", "Super", "Multi", "Skin", "Tree", "Glass", "Crater", "Terrain"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts_with_ci(ps, prefixes[i])) return true;
    return false;
}

static ferry_result colour(const ferry_config *cfg, const char *name, float rgba[4], bool *has, ferry_error *err)
{
    const ferry_config_entry *e = ferry_config_find(cfg, NULL, name, false);
    if (!e) return FERRY_OK;
    double d[4] = {0, 0, 0, 1};
    bool ok = e->kind == FERRY_CONFIG_ARRAY_ENTRY && (e->value.count == 4 || e->value.count == 3);
    for (size_t i = 0; ok && i < e->value.count; i++) ok = ferry_config_value_number(&e->value.items[i], &d[i]);
    if (!ok) {
        fy_error_set(err, FERRY_ERR_MALFORMED, e->offset, "", "%s must be an array of 3 or 4 numbers (RGBA)", name);
        return FERRY_ERR_MALFORMED;
    }
    for (int i = 0; i < 4; i++) rgba[i] = (float)d[i];
    *has = true;
    return FERRY_OK;
}

ferry_result ferry_rvmat_read(const ferry_config *cfg, ferry_rvmat *out, ferry_error *err)
{
    ferry_error local;
    if (!err) err = &local;
    fy_error_clear(err);
    if (!cfg || !out) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "ferry_rvmat_read: NULL config or out");
        return FERRY_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof *out);
    out->normal_stage = out->specular_stage = out->detail_stage = -1;
    ferry_result rc;
    if ((rc = colour(cfg, "ambient", out->ambient, &out->has_ambient, err)) ||
        (rc = colour(cfg, "diffuse", out->diffuse, &out->has_diffuse, err)) ||
        (rc = colour(cfg, "forcedDiffuse", out->forced_diffuse, &out->has_forced_diffuse, err)) ||
        (rc = colour(cfg, "emmisive", out->emmisive, &out->has_emmisive, err)) ||
        (rc = colour(cfg, "specular", out->specular, &out->has_specular, err)))
        return rc;
    const ferry_config_entry *e = ferry_config_find(cfg, NULL, "specularPower", false);
    double d;
    if (e && e->kind == FERRY_CONFIG_VALUE) {
        if (!ferry_config_value_number(&e->value, &d)) {
            fy_error_set(err, FERRY_ERR_MALFORMED, e->offset, "", "specularPower must be a number");
            return FERRY_ERR_MALFORMED;
        }
        out->specular_power = (float)d;
        out->has_specular_power = true;
    }
    e = ferry_config_find(cfg, NULL, "PixelShaderID", false);
    if (e && e->kind == FERRY_CONFIG_VALUE) out->pixel_shader = ferry_config_value_string(&e->value);
    e = ferry_config_find(cfg, NULL, "VertexShaderID", false);
    if (e && e->kind == FERRY_CONFIG_VALUE) out->vertex_shader = ferry_config_value_string(&e->value);

    const ferry_config_class *root = &cfg->root;
    for (size_t i = 0; i < root->entry_count; i++) {
        const ferry_config_entry *se = &root->entries[i];
        if (se->kind != FERRY_CONFIG_CLASS || !se->cls || !starts_with_ci(se->name, "stage")) continue;
        if (out->stage_count >= FERRY_RVMAT_MAX_STAGES) {
            fy_error_set(err, FERRY_ERR_LIMIT, se->offset, se->name, "more than %d stages", FERRY_RVMAT_MAX_STAGES);
            return FERRY_ERR_LIMIT;
        }
        ferry_rvmat_stage *st = &out->stages[out->stage_count++];
        st->name = se->name;
        st->number = -1;
        const char *digits = se->name + 5;
        if (*digits) {
            char *end = NULL;
            long n = strtol(digits, &end, 10);
            if (end && !*end && n >= 0 && n < 1000 && digits[0] >= '0' && digits[0] <= '9') st->number = (int)n;
        }
        st->tex_gen = -1;
        const ferry_config_entry *t = ferry_config_find(cfg, se->cls, "texture", false);
        if (t && t->kind == FERRY_CONFIG_VALUE) st->texture = ferry_config_value_string(&t->value);
        t = ferry_config_find(cfg, se->cls, "uvSource", false);
        if (t && t->kind == FERRY_CONFIG_VALUE) st->uv_source = ferry_config_value_string(&t->value);
        t = ferry_config_find(cfg, se->cls, "texGen", false);
        if (t && t->kind == FERRY_CONFIG_VALUE && ferry_config_value_number(&t->value, &d) && d >= 0 &&
            d < 1000) /* a TexGen class's number; anything else (1e300, NaN) is none, not an int overflow */
            st->tex_gen = (int)d;
        st->procedural = st->texture && st->texture[0] == '#';
        st->role = texture_role(st->texture);
        if (fy_cfg_name_eq(st->name, "StageTI")) st->role = FERRY_RVMAT_THERMAL;
    }
    /* the normal map: a stage named so by its texture; else Stage1 of a
     * normal-mapped pixel shader, when its texture says nothing else */
    for (size_t i = 0; i < out->stage_count; i++) {
        ferry_rvmat_stage *st = &out->stages[i];
        if (st->role == FERRY_RVMAT_NORMAL && out->normal_stage < 0) out->normal_stage = (int)i;
        if (st->role == FERRY_RVMAT_SPECULAR && out->specular_stage < 0) out->specular_stage = (int)i;
        if (st->role == FERRY_RVMAT_DETAIL && out->detail_stage < 0) out->detail_stage = (int)i;
    }
    if (out->normal_stage < 0 && normal_mapped_shader(out->pixel_shader))
        for (size_t i = 0; i < out->stage_count; i++) {
            ferry_rvmat_stage *st = &out->stages[i];
            if (st->number == 1 && st->texture && st->role == FERRY_RVMAT_OTHER) {
                st->role = FERRY_RVMAT_NORMAL;
                out->normal_stage = (int)i;
            }
        }
    return FERRY_OK;
}
