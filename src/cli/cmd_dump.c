/* ferry dump: the chunk tree of an Alamo file, decoded where known. */
#include "cli.h"
#include "formats.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char dump_usage[] =
    "usage: ferry dump [--json] FILE\n"
    "\n"
    "Prints the chunk tree of an Alamo file (.alo, .ala): type, offset, size and,\n"
    "where the format is known, the chunk's name, its strings, its mini-chunks\n"
    "and a summary of its fields. ODOL (.p3d) and ALM (.alm) files: every\n"
    "structure decoded, record by record. MEG archives: the header, the names\n"
    "and every file record. PBO archives: the product entry and its properties,\n"
    "every record with its offset, the SHA-1 stored and computed. PAA/PAC textures: tags (bytes shown), palette and\n"
    "each mipmap's place, size and compression. Configs (raP or text: .rvmat,\n"
    "config.bin, config.cpp): the tree as config text (--json: with offsets).\n"
    "\n"
    "  --json   machine-readable output on stdout\n";

static void hex_preview(const uint8_t *d, size_t n, char *out, size_t out_size)
{
    size_t used = 0;
    size_t show = n < 16 ? n : 16;
    for (size_t i = 0; i < show && used + 4 < out_size; i++) used += (size_t)snprintf(out + used, out_size - used, "%02x", d[i]);
    if (n > show && used + 4 < out_size) snprintf(out + used, out_size - used, "...");
}

/* Text that is safe to print: the string up to its NUL, non-printables escaped. */
static void printable(const uint8_t *d, size_t n, char *out, size_t out_size)
{
    size_t used = 0;
    for (size_t i = 0; i < n && d[i] && used + 5 < out_size; i++) {
        if (isprint(d[i]) && d[i] != '"' && d[i] != '\\')
            out[used++] = (char)d[i];
        else
            used += (size_t)snprintf(out + used, out_size - used, "\\x%02x", d[i]);
    }
    out[used] = '\0';
}

/* The string up to its NUL (or the chunk's end), as its bytes, malloc'd:
 * for JSON, where cli_json_set_text applies the lossless rule (UTF-8 as
 * is, else Latin-1 with a "latin1" mark; control characters escaped by JSON). */
static char *raw_string(const uint8_t *d, size_t n)
{
    size_t len = 0;
    while (len < n && d[len]) len++;
    char *s = malloc(len + 1);
    if (!s) return NULL;
    if (len) memcpy(s, d, len);
    s[len] = '\0';
    return s;
}

/* Values of a mini-chunk, by the width and kind its table gives. */
static void format_mini_value(ferry_value_kind kind, const ferry_mini_chunk *m, char *out, size_t out_size)
{
    out[0] = '\0';
    if (kind == FERRY_VALUE_STRING) {
        char text[600];
        printable(m->data, m->size, text, sizeof text);
        snprintf(out, out_size, "\"%s\"", text);
        return;
    }
    size_t width = kind == FERRY_VALUE_UINT8 ? 1 : (kind == FERRY_VALUE_UINT16 || kind == FERRY_VALUE_INT16) ? 2 : 4;
    if (kind == FERRY_VALUE_BYTES || m->size == 0 || m->size % width) {
        hex_preview(m->data, m->size, out, out_size);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i + width <= m->size && used < out_size; i += width) {
        const uint8_t *p = m->data + i;
        uint32_t u = width == 1 ? p[0] : width == 2 ? (uint32_t)(p[0] | (p[1] << 8))
                                                    : (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                                                          ((uint32_t)p[3] << 24);
        const char *sep = i ? " " : "";
        int w;
        if (kind == FERRY_VALUE_FLOAT) {
            float f;
            memcpy(&f, &u, 4);
            w = snprintf(out + used, out_size - used, "%s%g", sep, (double)f);
        } else if (kind == FERRY_VALUE_INT) {
            w = snprintf(out + used, out_size - used, "%s%d", sep, (int)(int32_t)u);
        } else if (kind == FERRY_VALUE_INT16) {
            w = snprintf(out + used, out_size - used, "%s%d", sep, (int)(int16_t)u);
        } else {
            w = snprintf(out + used, out_size - used, "%s%u", sep, (unsigned)u);
        }
        if (w < 0) break;
        used += (size_t)w;
    }
}

typedef struct dump_ctx {
    uint32_t root_type;
    bool json;
} dump_ctx;

static json_t *dump_chunk(const dump_ctx *ctx, const ferry_chunk *c, int depth)
{
    ferry_chunk_info info = ferry_alamo_chunk_info(ctx->root_type, c);
    json_t *j = NULL;
    if (ctx->json) {
        j = json_object();
        char type[16];
        snprintf(type, sizeof type, "0x%x", (unsigned)c->type);
        cli_json_set_text(j, "type", type);
        cli_json_set_text(j, "name", info.name);
        json_object_set_new(j, "offset", json_integer((json_int_t)c->offset));
        json_object_set_new(j, "size", json_integer(c->size));
        json_object_set_new(j, "container", json_boolean(c->is_container));
    } else {
        printf("%*s0x%x %s%s@0x%llx, %u bytes%s", depth * 2, "", (unsigned)c->type, info.name ? info.name : "",
               info.name ? " " : "", (unsigned long long)c->offset, (unsigned)c->size,
               c->is_container ? ", container" : "");
    }
    if (c->is_container) {
        if (!ctx->json) printf("\n");
        json_t *children = ctx->json ? json_array() : NULL;
        for (size_t i = 0; i < c->child_count; i++) {
            json_t *cj = dump_chunk(ctx, &c->children[i], depth + 1);
            if (children) json_array_append_new(children, cj);
        }
        if (j) json_object_set_new(j, "children", children);
        return j;
    }
    switch (info.content) {
    case FERRY_CONTENT_STRING: {
        if (j) {
            char *raw = raw_string(c->data, c->size);
            cli_json_set_text(j, "string", raw ? raw : "");
            free(raw);
            break;
        }
        char text[600];
        printable(c->data, c->size, text, sizeof text);
        printf(": \"%s\"\n", text);
        break;
    }
    case FERRY_CONTENT_MINI_CHUNKS: {
        size_t n;
        ferry_error err;
        if (ferry_alamo_mini_chunks_parse(c, NULL, 0, &n, &err) != FERRY_OK) {
            char msg[400];
            ferry_error_format(&err, msg, sizeof msg);
            if (j)
                cli_json_set_text(j, "error", msg);
            else
                printf(": (bad mini-chunks: %s)\n", msg);
            break;
        }
        ferry_mini_chunk *minis = calloc(n ? n : 1, sizeof *minis);
        ferry_alamo_mini_chunks_parse(c, minis, n, &n, &err);
        json_t *arr = j ? json_array() : NULL;
        if (!j) printf("\n");
        for (size_t i = 0; i < n; i++) {
            ferry_value_kind kind;
            const char *name = ferry_alamo_mini_name(ctx->root_type, c, minis[i].type, &kind);
            char value[700];
            format_mini_value(kind, &minis[i], value, sizeof value);
            if (arr) {
                json_t *mj = json_object();
                json_object_set_new(mj, "type", json_integer(minis[i].type));
                cli_json_set_text(mj, "name", name);
                json_object_set_new(mj, "offset", json_integer((json_int_t)minis[i].offset));
                json_object_set_new(mj, "size", json_integer(minis[i].size));
                if (kind == FERRY_VALUE_STRING) { /* the string itself, by the lossless rule */
                    char *raw = raw_string(minis[i].data, minis[i].size);
                    cli_json_set_text(mj, "value", raw ? raw : "");
                    free(raw);
                } else {
                    cli_json_set_text(mj, "value", value);
                }
                json_array_append_new(arr, mj);
            } else {
                printf("%*s[0x%02x] %s (%u bytes): %s\n", depth * 2 + 2, "", minis[i].type, name ? name : "?",
                       minis[i].size, CLI_TXT(value));
            }
        }
        if (j) json_object_set_new(j, "minis", arr);
        free(minis);
        break;
    }
    default: {
        char summary[512];
        ferry_alamo_chunk_summary(ctx->root_type, c, summary, sizeof summary);
        if (!summary[0] && info.content == FERRY_CONTENT_UNKNOWN) hex_preview(c->data, c->size, summary, sizeof summary);
        if (j)
            cli_json_set_text(j, "summary", summary);
        else
            printf("%s%s\n", summary[0] ? ": " : "", CLI_TXT(summary));
    }
    }
    return j;
}

int cmd_dump(int argc, char **argv)
{
    bool json = false;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(dump_usage, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("dump", "unknown option '%s'", argv[i]);
        else if (file)
            return cli_usage_error("dump", "one file at a time");
        else
            file = argv[i];
    }
    if (!file) return cli_usage_error("dump", "no file given");
    /* Mapped, as info and validate map it: an archive is never held whole
     * (a dump reads its tables, and for a PBO the pages its SHA-1 covers),
     * and has no size limit. */
    uint8_t head[FERRY_DETECT_HEAD];
    size_t got;
    ferry_error err;
    ferry_file_mapping map;
    if (!cli_check_head(file, head, sizeof head, &got, &err) ||
        ferry_file_map(file, cli_map_limit(ferry_detect(head, got)), &map, &err) != FERRY_OK) {
        cli_print_error(file, &err);
        return CLI_INVALID;
    }
    /* By content; a file of no known format still gets the chunk dump,
     * which shows any chunk tree that reads (whatever its root) and says
     * "not a known format" otherwise. */
    const cli_format *format = cli_format_for(ferry_detect(map.data, map.size));
    int status = (format && format->dump ? format->dump : cli_alamo_dump)(file, map.data, map.size, json);
    ferry_file_unmap(&map);
    return status;
}

/* The Alamo family's row of the format table (formats.c): the chunk tree. */
int cli_alamo_dump(const char *file, const uint8_t *data, size_t size, bool json)
{
    ferry_chunk_tree *tree;
    ferry_error err;
    if (ferry_alamo_chunk_read(data, size, NULL, &tree, &err) != FERRY_OK) {
        /* Not even a chunk file: say so, as info and validate do, rather
         * than reporting a chunk size read from text. Any chunk tree that
         * reads is dumped, whatever its root. */
        ferry_format f = ferry_detect(data, size);
        if (f != FERRY_FORMAT_ALO_MODEL && f != FERRY_FORMAT_ALO_PARTICLE && f != FERRY_FORMAT_ALO_PARTICLE_UAW &&
            f != FERRY_FORMAT_ALA)
            cli_not_known(&err, data, size);
        cli_print_error(file, &err);
        return CLI_INVALID;
    }
    const char *kind = ferry_format_name(ferry_detect(data, size));
    dump_ctx ctx = {tree->root_count ? tree->roots[0].type : 0, json};
    if (json) {
        json_t *root = json_object();
        cli_json_set_text(root, "file", file);
        cli_json_set_text(root, "format", kind);
        json_object_set_new(root, "size", json_integer((json_int_t)size));
        json_t *chunks = json_array();
        for (size_t i = 0; i < tree->root_count; i++) json_array_append_new(chunks, dump_chunk(&ctx, &tree->roots[i], 0));
        json_object_set_new(root, "chunks", chunks);
        cli_print_json(root);
        json_decref(root);
    } else {
        printf("%s: %s, %zu bytes\n", CLI_TXT(file), kind, size);
        for (size_t i = 0; i < tree->root_count; i++) dump_chunk(&ctx, &tree->roots[i], 0);
    }
    ferry_alamo_chunk_free(tree);
    return CLI_OK;
}
