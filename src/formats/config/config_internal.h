/* Internal: what the config reader, writers and queries share. */
#ifndef FERRY_CONFIG_INTERNAL_H
#define FERRY_CONFIG_INTERNAL_H

#include <ferry/config.h>

#include "../../core/core.h"

/* A growable entry list in the config's arena (text parsing). */
typedef struct fy_cfg_entries {
    ferry_config_entry *items;
    size_t count, capacity;
} fy_cfg_entries;

/* ASCII case-insensitive equality (the engine's rule for names). */
bool fy_cfg_name_eq(const char *a, const char *b);

/* The class path of `cls` ("CfgPatches/ace_main"; "" for the root) into out. */
void fy_cfg_class_path(const ferry_config_class *cls, char *out, size_t size);

/* A new config with its arena (NULL when memory runs out; err set). */
ferry_config *fy_cfg_new(const uint8_t *data, size_t size, const ferry_read_options *options, ferry_error *err);

ferry_result fy_cfg_read_rap(ferry_config *cfg, const uint8_t *data, size_t size, ferry_error *err);
ferry_result fy_cfg_read_text(ferry_config *cfg, const uint8_t *data, size_t size, ferry_error *err);

/* Shortest "%.Ng" text of a float that reads back to the same float. */
void fy_cfg_format_float(float f, char *out, size_t size);

#endif
