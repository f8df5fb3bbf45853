/* ferry info/dump/validate/convert/list for Petroglyph MEG archives. */
#include "formats.h"

#include <string.h>

int cli_meg_info(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    long long files = cli_jint(j, "files"), names = cli_jint(j, "names"), bytes = cli_jint(j, "data_bytes");
    printf("%s: MEG archive, format %lld, %lld bytes\n", CLI_TXT(file), cli_jint(j, "version"), cli_jint(j, "size"));
    printf("  %lld file%s, %lld name%s, %llu byte%s of entries\n", files, files == 1 ? "" : "s", names,
           names == 1 ? "" : "s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
    return CLI_OK;
}

int cli_meg_dump(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)asset;
    long long format = cli_jint(j, "version");
    printf("%s: MEG archive, format %lld, %lld bytes\n", CLI_TXT(file), format, cli_jint(j, "size"));
    if (format >= 2)
        printf("  flags 0x%08llX, id 0x%08llX, data start %lld\n", (unsigned long long)cli_jint(j, "flags"),
               (unsigned long long)cli_jint(j, "id"), cli_jint(j, "data_start"));
    if (format == 3) printf("  name table size %lld\n", cli_jint(j, "name_table_size"));
    const json_t *names = json_object_get(j, "names"), *files = json_object_get(j, "files");
    printf("  names (%zu):\n", json_array_size(names));
    for (size_t i = 0; i < json_array_size(names); i++) {
        const json_t *n = json_array_get(names, i);
        printf("    [%zu] ", i);
        cli_fput_textn(stdout, json_string_value(n), json_string_length(n));
        putchar('\n');
    }
    printf("  files (%zu):\n", json_array_size(files));
    for (size_t i = 0; i < json_array_size(files); i++) {
        const json_t *e = json_array_get(files, i);
        printf("    [%zu] crc 0x%08llX index %lld size %lld start %lld name %lld flags %lld\n", i,
               (unsigned long long)cli_jint(e, "crc"), cli_jint(e, "stored_index"), cli_jint(e, "size"),
               cli_jint(e, "start"), cli_jint(e, "name_index"), cli_jint(e, "flags"));
    }
    return CLI_OK;
}

int cli_meg_list(const char *file, const ferry_asset *asset, const json_t *j)
{
    (void)file;
    (void)asset;
    const json_t *files = json_object_get(j, "files");
    printf("%10s %10s %5s  name\n", "size", "offset", "flags");
    for (size_t i = 0; i < json_array_size(files); i++) {
        const json_t *e = json_array_get(files, i);
        const char *name = cli_jstr(e, "name");
        printf("%10lld %10lld %5lld  %s\n", cli_jint(e, "size"), cli_jint(e, "start"), cli_jint(e, "flags"),
               name ? CLI_TXT(name) : "(no name)");
    }
    return CLI_OK;
}
