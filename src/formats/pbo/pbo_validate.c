/* PBO validator: what the engine relies on, and what extraction needs
 * (docs/formats/pbo.md, "Validation rules"). */
#include <ferry/pbo.h>

#include "../../core/core.h"
#include "pbo_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int entry_cmp(const ferry_pbo *m, size_t a, size_t b)
{
    const ferry_pbo_entry *x = &m->entries[a], *y = &m->entries[b];
    return fy_pbo_name_cmp(x->name, x->name_length, y->name, y->name_length);
}

static void order_entries(const ferry_pbo *m, size_t *v, size_t *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    order_entries(m, v, tmp, h);
    order_entries(m, v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = entry_cmp(m, v[i], v[j]) <= 0 ? v[i++] : v[j++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static bool printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F) return false;
    return true;
}

static void hex(char out[2 * FERRY_PBO_SHA1_SIZE + 1], const uint8_t *d)
{
    for (size_t i = 0; i < FERRY_PBO_SHA1_SIZE; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

size_t ferry_pbo_validate(const ferry_pbo *m, const ferry_pbo_validate_options *options, ferry_diagnostics *diags)
{
    (void)options;
    size_t errors = 0;
    char path[64];
    if (!m) return 0;
    /* The product entry and its properties. */
    if (m->has_product_entry) {
        const ferry_pbo_entry *p = &m->product;
        if (p->original_size || p->reserved || p->timestamp || p->size)
            FY_DIAG_WARN(p->offset, "product", "pbo-product-fields",
                         "product entry has non-zero fields (original size %u, reserved %u, timestamp %u, data size %u): "
                         "packers write zeros",
                         (unsigned)p->original_size, (unsigned)p->reserved, (unsigned)p->timestamp, (unsigned)p->size);
        for (size_t i = 0; i < m->property_count; i++) {
            const ferry_pbo_property *q = &m->properties[i];
            snprintf(path, sizeof path, "properties[%zu]", i);
            if (!printable(q->key, q->key_length) || !printable(q->value, q->value_length))
                FY_DIAG_WARN(q->offset, path, "pbo-property-text", "property '%s' has control characters", q->key);
            for (size_t k = 0; k < i; k++)
                if (fy_pbo_key_eq(m->properties[k].key, m->properties[k].key_length, q->key, q->key_length)) {
                    FY_DIAG_WARN(q->offset, path, "pbo-property-duplicate",
                                 "property '%s' is also properties[%zu] (case ignored, as the engine compares keys): it finds the first", q->key, k);
                    break;
                }
        }
        const char *prefix = ferry_pbo_property_value(m, "prefix");
        if (!prefix) {
            FY_DIAG_WARN(p->offset, "product", "pbo-prefix-missing",
                         "product entry without a 'prefix' property: the engine mounts the entries under the archive's file name");
        } else {
            size_t n = strlen(prefix);
            if (!n)
                FY_DIAG_WARN(p->offset, "product", "pbo-prefix", "the prefix is empty");
            else if (prefix[0] == '\\' || prefix[0] == '/' || prefix[n - 1] == '\\' || prefix[n - 1] == '/' ||
                     strchr(prefix, '/'))
                FY_DIAG_WARN(p->offset, "product", "pbo-prefix",
                             "prefix '%s' starts or ends with a separator or holds '/' (the engine's use '\\' between "
                             "folders only)",
                             prefix);
        }
    }
    /* The entries. */
    for (size_t i = 0; i < m->entry_count; i++) {
        const ferry_pbo_entry *e = &m->entries[i];
        snprintf(path, sizeof path, "entries[%zu]", i);
        const char *why = fy_pbo_unsafe_name(e->name, e->name_length);
        if (why)
            FY_DIAG_WARN(e->offset, path, "pbo-name-unsafe", "name '%s': %s (ferry extract refuses it)", e->name, why);
        else if (memchr(e->name, '/', e->name_length))
            FY_DIAG_WARN(e->offset, path, "pbo-name-slash", "name '%s' has '/' (the engine's names use '\\')", e->name);
        if (!printable(e->name, e->name_length))
            FY_DIAG_WARN(e->offset, path, "pbo-name-text", "name '%s' has control characters", e->name);
        if (e->method == FERRY_PBO_METHOD_VERSION) {
            FY_DIAG_ERR(e->offset, path, "pbo-method",
                        "packing method 'Vers' (the product entry's) on a file: only the first, unnamed record may have it");
        } else if (e->method != FERRY_PBO_METHOD_NONE && e->method != FERRY_PBO_METHOD_COMPRESSED) {
            FY_DIAG_ERR(e->offset, path, "pbo-method", "packing method 0x%08X: known are 0 (stored) and 0x43707273 ('Cprs')",
                        (unsigned)e->method);
        }
        if (!e->data) {
            FY_DIAG_ERR(e->offset, path, "pbo-bounds", "its %u bytes at %llu end at %llu, past the archive's %zu bytes",
                        (unsigned)e->size, (unsigned long long)e->start, (unsigned long long)e->start + e->size,
                        m->archive_size);
            continue;
        }
        if (e->method == FERRY_PBO_METHOD_NONE && e->original_size && e->original_size != e->size)
            FY_DIAG_WARN(e->offset, path, "pbo-original-size",
                         "stored entry with original size %u and data size %u (packers write 0 or the data size)",
                         (unsigned)e->original_size, (unsigned)e->size);
        if (e->method == FERRY_PBO_METHOD_COMPRESSED) {
            uint8_t *bytes = NULL;
            size_t n = 0;
            ferry_error err;
            if (ferry_pbo_entry_bytes(m, i, 0, &bytes, &n, &err) != FERRY_OK) {
                if (err.code == FERRY_ERR_NOMEM)
                    FY_DIAG_ERR(FERRY_NO_OFFSET, path, "out-of-memory", "cannot decode '%s': out of memory", e->name);
                else
                    FY_DIAG_ERR(err.offset, path, "pbo-compressed", "%s", err.message);
            }
            free(bytes);
        }
    }
    /* Two entries of one name (ignoring case, '/' as '\'): the engine finds one. */
    size_t *order = m->entry_count ? malloc(2 * m->entry_count * sizeof *order) : NULL;
    if (order) {
        for (size_t i = 0; i < m->entry_count; i++) order[i] = i;
        order_entries(m, order, order + m->entry_count, m->entry_count);
        for (size_t k = 1; k < m->entry_count; k++)
            if (entry_cmp(m, order[k - 1], order[k]) == 0) {
                size_t a = order[k - 1] < order[k] ? order[k - 1] : order[k], b = order[k - 1] ^ order[k] ^ a;
                snprintf(path, sizeof path, "entries[%zu]", b);
                FY_DIAG_WARN(m->entries[b].offset, path, "pbo-name-duplicate",
                             "name '%s' is also entries[%zu]'s (case and slashes ignored): the engine finds only one",
                             m->entries[b].name, a);
            }
        free(order);
    } else if (m->entry_count) {
        FY_DIAG_ERR(FERRY_NO_OFFSET, "entries", "out-of-memory", "cannot check duplicate names: out of memory");
    }
    /* The end of the table, and the trailer. */
    const ferry_pbo_entry *t = &m->terminator;
    if (t->method || t->original_size || t->reserved || t->timestamp || t->size)
        FY_DIAG_WARN(t->offset, "terminator", "pbo-terminator-fields",
                     "the record ending the table has non-zero fields (method 0x%08X, original size %u, reserved %u, "
                     "timestamp %u, data size %u)",
                     (unsigned)t->method, (unsigned)t->original_size, (unsigned)t->reserved, (unsigned)t->timestamp,
                     (unsigned)t->size);
    if (m->data_end <= m->archive_size) {
        uint64_t left = m->archive_size - m->data_end;
        if (m->has_checksum) {
            if (memcmp(m->checksum, m->computed, FERRY_PBO_SHA1_SIZE) != 0) {
                char want[41], got[41];
                hex(want, m->computed);
                hex(got, m->checksum);
                FY_DIAG_ERR(m->data_end + 1, "checksum", "pbo-checksum",
                            "stored SHA-1 %s, but the %llu bytes before the trailer give %s", got,
                            (unsigned long long)m->data_end, want);
            }
            if (left > 1 + FERRY_PBO_SHA1_SIZE)
                FY_DIAG_WARN(m->data_end + 1 + FERRY_PBO_SHA1_SIZE, "checksum", "pbo-trailer",
                             "%llu bytes follow the SHA-1 (kept by a rewrite)",
                             (unsigned long long)(left - 1 - FERRY_PBO_SHA1_SIZE));
        } else if (left == 0) {
            FY_DIAG_WARN(m->data_end, "checksum", "pbo-checksum-missing",
                         "no SHA-1 trailer after the data (Operation Flashpoint's archives have none)");
        } else {
            FY_DIAG_ERR(m->data_end, "checksum", "pbo-trailer",
                        "%llu bytes after the data are not a 0 byte and a 20-byte SHA-1", (unsigned long long)left);
        }
    }
    return errors;
}
