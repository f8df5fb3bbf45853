/* ferry: Bohemia Interactive's configs (config.cpp, .rvmat materials, ...) in
 * both forms, text and binarized ("rapified", signature "\0raP"), read into
 * one plain-data tree (one arena, one free), queried by class path, written
 * back as raP bytes or as text.
 *
 * docs/formats/config.md describes both forms and every decision. In short:
 *  - raP: "\0raP", u32 0, u32 8, u32 offset of the enum table; then the root
 *    class body: its parent's name (a NUL-terminated string, "" for none), a
 *    compressed entry count (7 bits a byte, low bits first), the entries, and
 *    a u32 offset of the end of the class's subtree of bodies; a class entry
 *    holds the offset of its body, bodies follow one another depth first.
 *  - text: the subset of config.cpp that materials and the build tools' test
 *    pairs use: `class A: B {...};`, `class A;`, `delete A;`, `name = value;`,
 *    `name[] = {...};`, `name[] += {...};`, `enum {...};`, comments. Of the
 *    preprocessor only `#define NAME` (no value), `#undef`, `#ifdef`,
 *    `#ifndef`, `#else`, `#endif` are honoured; a macro with a value or
 *    parameters, `#include` and any other directive are refused
 *    (FERRY_ERR_UNSUPPORTED): ferry does not expand macros.
 */
#ifndef FERRY_CONFIG_H
#define FERRY_CONFIG_H

#include <ferry/ferry.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Classes nest at most this deep (the root is depth 0), arrays too: deeper
 * input is a FERRY_ERR_LIMIT error, never a stack overflow. */
#define FERRY_CONFIG_MAX_DEPTH 64

/* A value's type; the numbers are raP's type bytes. */
typedef enum ferry_config_type {
    FERRY_CONFIG_STRING = 0,
    FERRY_CONFIG_FLOAT = 1,      /* a 32-bit float */
    FERRY_CONFIG_INT = 2,        /* a 32-bit signed integer */
    FERRY_CONFIG_ARRAY = 3,      /* items (array elements only in raP; whole arrays are entries) */
    FERRY_CONFIG_EXPRESSION = 4, /* raP's "variable": an expression kept as text (e.g. from __EVAL) */
    FERRY_CONFIG_INT64 = 6       /* a 64-bit signed integer (Arma 3's raP only) */
} ferry_config_type;

typedef struct ferry_config_value {
    uint8_t type;                      /* a ferry_config_type */
    const char *string;                /* STRING, EXPRESSION: NUL-terminated, in the config's arena */
    float f;                           /* FLOAT */
    int64_t i;                         /* INT, INT64 */
    size_t count;                      /* ARRAY: its items */
    struct ferry_config_value *items;
} ferry_config_value;

/* An entry's kind; the numbers are raP's entry type bytes. */
typedef enum ferry_config_kind {
    FERRY_CONFIG_CLASS = 0,        /* class A: B {...}; */
    FERRY_CONFIG_VALUE = 1,        /* name = value; */
    FERRY_CONFIG_ARRAY_ENTRY = 2,  /* name[] = {...}; */
    FERRY_CONFIG_EXTERNAL = 3,     /* class A; */
    FERRY_CONFIG_DELETE = 4,       /* delete A; */
    FERRY_CONFIG_ARRAY_APPEND = 5  /* name[] += {...}; */
} ferry_config_kind;

typedef struct ferry_config_class ferry_config_class;

typedef struct ferry_config_entry {
    uint8_t kind;              /* a ferry_config_kind */
    const char *name;          /* as written (case kept) */
    ferry_config_value value;  /* VALUE: the value; ARRAY_ENTRY, ARRAY_APPEND: type ARRAY */
    uint32_t append_flags;     /* ARRAY_APPEND in raP: the u32 before the name (1 in every file seen) */
    ferry_config_class *cls;   /* CLASS: its body */
    uint64_t offset;           /* raP: of the entry's type byte; text: of its first character */
} ferry_config_entry;

struct ferry_config_class {
    const char *name;          /* "" for the root */
    const char *parent;        /* the base class's name as written, "" for none */
    ferry_config_class *owner; /* the enclosing class, NULL for the root */
    size_t entry_count;
    ferry_config_entry *entries;
    uint64_t body_offset;      /* raP: where its body starts */
    uint32_t end_field;        /* raP: the u32 after its entries, as stored */
};

typedef struct ferry_config_enum {
    const char *name;
    int32_t value;
} ferry_config_enum;

typedef struct ferry_config {
    bool binarized;            /* read from raP (else from text) */
    ferry_config_class root;
    size_t enum_count;
    ferry_config_enum *enums;
    /* raP layout, as read (the writer recomputes it; a file laid out other
     * than depth first, as every tool writes, does not rewrite byte for byte:
     * `canonical` says whether it was). */
    uint32_t header[3];        /* the u32s after the signature: 0, 8, enum table offset */
    bool canonical;
    size_t trailer_size;       /* bytes after the enum table, kept */
    const uint8_t *trailer;
    size_t class_count;        /* classes with a body, the root included */
    ferry_arena *arena;
} ferry_config;

/* Reads a config in either form: raP when it starts with "\0raP", else
 * text (UTF-8 or Latin-1, a byte-order mark skipped). Errors name the byte
 * offset and the class path ("CfgPatches/ace_main"). */
FERRY_API ferry_result ferry_config_read(const uint8_t *data, size_t size, const ferry_read_options *options,
                                         ferry_config **out, ferry_error *err);
FERRY_API void ferry_config_free(ferry_config *config);

/* Appends the raP bytes of the tree (bodies depth first, as the tools write
 * them); a raP read writes back byte for byte when `canonical`. A text
 * config becomes raP ("rapify"). */
FERRY_API ferry_result ferry_config_write(const ferry_config *config, ferry_buffer *out, ferry_error *err);

/* Appends the tree as config text ("derapify"): reading it back gives the
 * same tree (floats printed with the fewest digits that round-trip). */
FERRY_API ferry_result ferry_config_write_text(const ferry_config *config, ferry_buffer *out, ferry_error *err);

typedef struct ferry_config_validate_options {
    int reserved; /* no options yet: leave zero (a NULL options pointer is the same) */
} ferry_config_validate_options;

/* Rules over the tree (docs/formats/config.md#rules): a base class that
 * cannot be found (warning), a name given twice in one class (warning), a
 * raP file not laid out depth first or whose stored offsets disagree with
 * the layout (warning), non-finite floats (error). Returns the errors added. */
FERRY_API size_t ferry_config_validate(const ferry_config *config, const ferry_config_validate_options *options,
                                       ferry_diagnostics *diags);

/* ---- queries (names compared ignoring ASCII case, as the engine does) ---- */

/* The entry `path` names under `from` (NULL: the root): class names
 * separated by '/', the last part any entry ("Stage1/texture"). With
 * `inherit`, a name not found in a class is looked up in its base classes,
 * as the engine does (ferry_config_base). NULL when not found. */
FERRY_API const ferry_config_entry *ferry_config_find(const ferry_config *config, const ferry_config_class *from,
                                                      const char *path, bool inherit);
/* The class `path` names (a class entry with a body), or NULL. */
FERRY_API const ferry_config_class *ferry_config_find_class(const ferry_config *config,
                                                            const ferry_config_class *from, const char *path);
/* The base class of `cls`: its parent name looked up among the classes
 * visible from its enclosing class, innermost scope first, classes declared
 * before it (with a body) only. NULL when it has none or it is not found. */
FERRY_API const ferry_config_class *ferry_config_base(const ferry_config *config, const ferry_config_class *cls);

/* A value as text (STRING, EXPRESSION; NULL otherwise) and as a number
 * (FLOAT, INT, INT64, or a STRING holding a whole number: false otherwise). */
FERRY_API const char *ferry_config_value_string(const ferry_config_value *value);
FERRY_API bool ferry_config_value_number(const ferry_config_value *value, double *number);

/* "string", "float", "int", "array", "expression", "int64"; NULL for an unknown type. */
FERRY_API const char *ferry_config_type_name(uint8_t type);

/* ---- .rvmat materials ---- */

#define FERRY_RVMAT_MAX_STAGES 32

/* What a stage's texture is for (docs/formats/config.md#rvmat). */
typedef enum ferry_rvmat_role {
    FERRY_RVMAT_OTHER = 0,
    FERRY_RVMAT_NORMAL,      /* _nohq, _no, _nopx, _normalmap, or Stage1 of a normal-mapped shader */
    FERRY_RVMAT_SPECULAR,    /* _smdi (specular in G, gloss in B), _sm */
    FERRY_RVMAT_DETAIL,      /* _dt, _cdt */
    FERRY_RVMAT_MACRO,       /* _mc */
    FERRY_RVMAT_AMBIENT,     /* _as (ambient shadow) */
    FERRY_RVMAT_COLOUR,      /* _co, _ca */
    FERRY_RVMAT_ENVIRONMENT, /* an environment/reflection map (_env, envmap textures) */
    FERRY_RVMAT_FRESNEL,     /* a procedural fresnel(...) texture */
    FERRY_RVMAT_THERMAL      /* _ti */
} ferry_rvmat_role;

typedef struct ferry_rvmat_stage {
    const char *name;        /* the class name: "Stage1", "StageTI" */
    int number;              /* N of "StageN", -1 for another name */
    const char *texture;     /* NULL when the stage has none; "#(...)..." is procedural */
    const char *uv_source;   /* "tex", "tex1", "none", ...; NULL when absent */
    int tex_gen;             /* texGen as a number from 0 to 999, -1 when absent or out of that range */
    bool procedural;         /* texture starts with '#' */
    uint8_t role;            /* a ferry_rvmat_role */
} ferry_rvmat_stage;

/* A material's colours are RGBA; has_* says whether the entry was there
 * (an absent one is left 0,0,0,0; the engine's defaults are the caller's
 * business). An array of 3 numbers gives alpha 1. */
typedef struct ferry_rvmat {
    float ambient[4], diffuse[4], forced_diffuse[4], emmisive[4], specular[4];
    float specular_power;
    bool has_ambient, has_diffuse, has_forced_diffuse, has_emmisive, has_specular, has_specular_power;
    const char *pixel_shader;  /* PixelShaderID, NULL when absent */
    const char *vertex_shader; /* VertexShaderID, NULL when absent */
    size_t stage_count;        /* classes named Stage* at the root, in file order */
    ferry_rvmat_stage stages[FERRY_RVMAT_MAX_STAGES];
    /* Index into stages of the normal, specular and detail maps, -1 for none. */
    int normal_stage, specular_stage, detail_stage;
} ferry_rvmat;

/* The material a config describes. Strings point into the config (valid
 * until ferry_config_free); nothing to free. Texture paths are as written
 * (engine paths: backslashes, any case, sometimes a leading backslash); finding
 * the file is the caller's. Example, the normal map of an .rvmat's bytes:
 *
 *     ferry_config *cfg;
 *     ferry_rvmat m;
 *     if (ferry_config_read(data, size, NULL, &cfg, &err) == FERRY_OK) {
 *         if (ferry_rvmat_read(cfg, &m, &err) == FERRY_OK && m.normal_stage >= 0 &&
 *             !m.stages[m.normal_stage].procedural)
 *             use(m.stages[m.normal_stage].texture); // "a\\data\\x_nohq.paa"
 *         ferry_config_free(cfg);
 *     }
 *
 * Fails (MALFORMED, located) only when a colour is not an array of
 * numbers; stages past FERRY_RVMAT_MAX_STAGES are a LIMIT error. */
FERRY_API ferry_result ferry_rvmat_read(const ferry_config *config, ferry_rvmat *out, ferry_error *err);

/* "normal", "specular", "detail", "macro", "ambient shadow", "colour",
 * "environment", "fresnel", "thermal", "other". */
FERRY_API const char *ferry_rvmat_role_name(uint8_t role);

#ifdef __cplusplus
}
#endif

#endif
