/* SHA-1 through nettle (nettle-dev, linked privately into libferry.so):
 * what the PBO trailer holds. */
#include "codec.h"

#include <nettle/sha1.h>

void fy_sha1(const void *data, size_t size, uint8_t digest[FY_SHA1_SIZE])
{
    struct sha1_ctx ctx;
    sha1_init(&ctx);
    sha1_update(&ctx, size, data);
    sha1_digest(&ctx, SHA1_DIGEST_SIZE, digest);
}

void fy_sha1_init(fy_sha1_ctx *ctx) { sha1_init(ctx); }

void fy_sha1_update(fy_sha1_ctx *ctx, const void *data, size_t size)
{
    if (size) sha1_update(ctx, size, data);
}

void fy_sha1_digest(fy_sha1_ctx *ctx, uint8_t digest[FY_SHA1_SIZE]) { sha1_digest(ctx, SHA1_DIGEST_SIZE, digest); }
