/* ferry info/dump/validate/convert/list for Bohemia PBO archives. */
#include "formats.h"

#include <string.h>

/* A property's key or value, or an entry's name, as stored. */
static void put(const json_t *object, const char *key) { cli_fput_textn(stdout, cli_jstr(object, key), cli_jlen(object, key)); }

int cli_pbo_list(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)file;
    (void)asset;
    const json_t *props = json_object_get(j, "properties"), *files = json_object_get(j, "files");
    for (size_t i = 0; i < json_array_size(props); i++) {
        fputs("property ", stdout);
        put(json_array_get(props, i), "key");
        fputs(" = ", stdout);
        put(json_array_get(props, i), "value");
        putchar('\n');
    }
    printf("%10s %10s %10s %-10s %10s  name\n", "size", "stored", "offset", "method", "timestamp");
    for (size_t i = 0; i < json_array_size(files); i++) {
        const json_t *e = json_array_get(files, i);
        printf("%10lld %10lld %10llu %-10s %10lld  ", cli_jint(e, "size"), cli_jint(e, "data_size"),
               (unsigned long long)cli_jint(e, "start"), cli_jstr(e, "method"), cli_jint(e, "timestamp"));
        put(e, "name");
        putchar('\n');
    }
    return CLI_OK;
}

int cli_pbo_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    long long files = cli_jint(j, "files"), stored = cli_jint(j, "data_bytes");
    const char *prefix = cli_jstr(j, "prefix");
    const json_t *props = json_object_get(j, "properties");
    printf("%s: PBO archive, %lld bytes\n", CLI_TXT(file), cli_jint(j, "size"));
    printf("  prefix: %s\n", prefix ? CLI_TXT(prefix) : "(none)");
    for (size_t i = 0; i < json_array_size(props); i++) {
        const json_t *p = json_array_get(props, i);
        if (strcmp(cli_jstr(p, "key"), "prefix") == 0) continue;
        printf("  %s: %s\n", CLI_TXT(cli_jstr(p, "key")), CLI_TXT(cli_jstr(p, "value")));
    }
    printf("  %lld file%s (%lld compressed), %llu byte%s stored, %llu unpacked\n", files, files == 1 ? "" : "s",
           cli_jint(j, "compressed_files"), (unsigned long long)stored, stored == 1 ? "" : "s",
           (unsigned long long)cli_jint(j, "original_bytes"));
    if (cli_jstr(j, "sha1"))
        printf("  SHA-1 %s (%s)\n", cli_jstr(j, "sha1"), cli_jbool(j, "sha1_ok") ? "matches" : "does NOT match");
    else
        printf("  no SHA-1 trailer\n");
    return CLI_OK;
}

static void print_record(const char *what, const json_t *e)
{
    printf("    %s @%llu: method 0x%08llX (%s), original size %lld, reserved %lld, timestamp %lld, data size %lld", what,
           (unsigned long long)cli_jint(e, "offset"), (unsigned long long)cli_jint(e, "method_value"),
           cli_jstr(e, "method"), cli_jint(e, "original_size"), cli_jint(e, "reserved"), cli_jint(e, "timestamp"),
           cli_jint(e, "data_size"));
}

int cli_pbo_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    const json_t *props = json_object_get(j, "properties"), *files = json_object_get(j, "files");
    printf("%s: PBO archive, %lld bytes\n", CLI_TXT(file), cli_jint(j, "size"));
    if (cli_jbool(j, "product_entry")) {
        print_record("product entry", json_object_get(j, "product"));
        putchar('\n');
        for (size_t i = 0; i < json_array_size(props); i++) {
            const json_t *p = json_array_get(props, i);
            printf("      [%zu] @%llu ", i, (unsigned long long)cli_jint(p, "offset"));
            put(p, "key");
            fputs(" = ", stdout);
            put(p, "value");
            putchar('\n');
        }
    }
    printf("  entries (%zu):\n", json_array_size(files));
    for (size_t i = 0; i < json_array_size(files); i++) {
        const json_t *e = json_array_get(files, i);
        char what[32];
        snprintf(what, sizeof what, "[%zu]", i);
        print_record(what, e);
        printf(", data at %llu: ", (unsigned long long)cli_jint(e, "start"));
        put(e, "name");
        putchar('\n');
    }
    print_record("terminator", json_object_get(j, "terminator"));
    printf("\n  data %lld..%llu\n", cli_jint(j, "data_start"), (unsigned long long)cli_jint(j, "data_end"));
    if (cli_jstr(j, "sha1")) printf("  SHA-1 stored %s, computed %s\n", cli_jstr(j, "sha1"), cli_jstr(j, "sha1_computed"));
    return CLI_OK;
}
