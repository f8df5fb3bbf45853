/* libFuzzer target: any bytes through the format table (ferry_asset_read,
 * told by content), then every verb its row has.
 *
 * Contracts checked (abort on breach, so libFuzzer keeps the input):
 *  - a failed read is located: a byte offset inside the input, or a path
 *    (glTF's JSON path), and a message;
 *  - an asset of a format that writes gives its input back byte for byte
 *    (raP: when laid out as the tools do, as fuzz_config checks);
 *  - validation reports with rules, located inside the input or nowhere;
 *    an archive's entries are reported with a label and a count;
 *  - info (summary and full) and, for archives, the entries are JSON text
 *    that parses, or a located refusal;
 *  - bytes only: any content opens, and its full info is a chunk tree or a
 *    refusal. */
#include <ferry/config.h>
#include <ferry/format.h>
#include <ferry/pbo.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_asset: %s\n", what);
    abort();
}

static void check_diags(const ferry_diagnostics *d, size_t size)
{
    for (size_t i = 0; i < d->count; i++) {
        if (!d->items[i].rule[0]) fail("diagnostic without a rule");
        if (d->items[i].offset != FERRY_NO_OFFSET && d->items[i].offset > size) fail("diagnostic outside the input");
    }
}

typedef struct entries {
    size_t size;
    size_t count;
} entries;

static void on_entry(void *user, const ferry_asset_entry_report *e)
{
    entries *s = user;
    s->count++;
    if (!e->label || !e->label[0]) fail("entry without a label");
    if (e->error ? e->error_count != 1 || !e->error->message[0] : !e->diagnostics) fail("entry report incomplete");
    /* An entry's offsets are in its own bytes, which are inside the archive's. */
    if (e->diagnostics) check_diags(e->diagnostics, s->size);
}

static void check_info(const ferry_asset *a, ferry_info_detail detail, size_t size)
{
    ferry_buffer text = {0};
    ferry_error err;
    ferry_info_options o = {detail, detail == FERRY_INFO_FULL, detail == FERRY_INFO_FULL};
    if (ferry_asset_info(a, &o, &text, &err) == FERRY_OK) {
        json_error_t jerr;
        json_t *j = json_loadb((const char *)text.data, text.size, JSON_ALLOW_NUL, &jerr);
        if (!json_is_object(j)) fail("info is not a JSON object");
        json_decref(j);
    } else if (!err.message[0] || (err.offset != FERRY_NO_OFFSET && err.offset > size)) {
        fail("info refused without a located message");
    }
    ferry_buffer_free(&text);
}

/* An animation sampled, a particle system simulated (a short time: the
 * simulation's own target, fuzz_particle_sim, goes further): JSON objects,
 * or refusals of any other kind. */
static void check_motion(const ferry_asset *a)
{
    ferry_buffer text = {0};
    ferry_error err;
    ferry_format f = ferry_asset_format(a);
    ferry_result r = ferry_asset_sample(a, &(ferry_asset_sample_options){.frame = 1.5, .loop = true}, &text, &err);
    if ((r == FERRY_OK) != (f == FERRY_FORMAT_ALA)) fail("sample: refused an animation or sampled another kind");
    ferry_buffer_free(&text);
    r = ferry_asset_particles(a, &(ferry_asset_particles_options){.time = 0.25}, &text, &err);
    if ((r == FERRY_OK) != (f == FERRY_FORMAT_ALO_PARTICLE)) fail("particles: refused a system or simulated another kind");
    if (r == FERRY_OK) {
        json_t *j = json_loadb((const char *)text.data, text.size, 0, NULL);
        if (!json_is_object(j)) fail("particles is not a JSON object");
        json_decref(j);
    }
    ferry_buffer_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ferry_asset *a = NULL;
    ferry_error err;
    ferry_format read_as = FERRY_FORMAT_UNKNOWN;
    ferry_asset_options o = {.name = "fuzz", .detected = &read_as};
    if (ferry_asset_read(data, size, &o, &a, &err) != FERRY_OK) {
        if (a) fail("an asset left on failure");
        if (err.code == FERRY_OK || !err.message[0]) fail("error without a message");
        bool offset_ok = err.offset != FERRY_NO_OFFSET && err.offset <= size;
        if (!offset_ok && !(err.offset == FERRY_NO_OFFSET && err.path[0])) fail("error without a location");
    } else {
        const ferry_format_desc *d = ferry_format_describe(ferry_asset_format(a));
        if (!d || d->id != read_as || ferry_asset_format(a) != ferry_detect(data, size)) fail("format not the content's");
        ferry_buffer out = {0};
        if (d->caps & FERRY_CAN_WRITE) {
            if (ferry_asset_write(a, &out, &err) != FERRY_OK) fail("an asset read does not write");
            /* raP comes back byte for byte when laid out as the tools lay it
             * out (config.h: canonical); otherwise in that layout. */
            bool exact = d->id != FERRY_FORMAT_RAP || ((const ferry_config *)ferry_asset_object(a))->canonical;
            if (exact && (out.size != size || memcmp(out.data, data, size) != 0))
                fail("writing does not reproduce the input");
        }
        ferry_buffer_free(&out);
        /* Compressed PBO entries are decoded by validation (the archive's
         * own checks and the entries'): keep them small, as fuzz_pbo does. */
        bool small = true;
        if (ferry_asset_format(a) == FERRY_FORMAT_PBO) {
            const ferry_pbo *p = ferry_asset_object(a);
            for (size_t i = 0; i < p->entry_count; i++)
                if (p->entries[i].method == FERRY_PBO_METHOD_COMPRESSED && p->entries[i].original_size > (1u << 20))
                    small = false;
        }
        if (small) {
            ferry_diagnostics diags = {0};
            entries seen = {size, 0};
            ferry_asset_validate_options vo = {.entry = on_entry, .user = &seen};
            ferry_asset_validate(a, &vo, &diags);
            check_diags(&diags, size);
            ferry_diagnostics_free(&diags);
        }
        check_info(a, FERRY_INFO_SUMMARY, size);
        check_info(a, FERRY_INFO_FULL, size);
        if (d->caps & FERRY_IS_ARCHIVE) check_info(a, FERRY_INFO_ENTRIES, size);
        check_motion(a);
        ferry_asset_free(a);
    }
    /* Bytes only: whatever the content, it opens; its dump is a chunk tree,
     * its format's document, or a located refusal. */
    if (ferry_asset_read(data, size, &(ferry_asset_options){.bytes_only = true}, &a, &err) != FERRY_OK)
        fail("bytes only refused");
    if (ferry_asset_object(a)) fail("bytes only made an object");
    check_info(a, FERRY_INFO_FULL, size);
    ferry_asset_free(a);
    return 0;
}
