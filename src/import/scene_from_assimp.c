/* FBX, OBJ, Collada (anything Assimp reads) into a ferry_scene through
 * Assimp's C API. Assimp sees only the caller's bytes: its file callbacks
 * (aiFileIO) serve the one in-memory file and refuse every other name, so
 * the library never touches the disk. docs/formats/gltf-import.md,
 * "Other formats (Assimp)". */
#include "ferry_assimp.h"

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Public API only (this file is not part of libferry): errors set here. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void set_error(ferry_error *err, ferry_result code, const char *fmt, ...)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = FERRY_NO_OFFSET;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ---- the in-memory file system ---- */

typedef struct mem_fs {
    const uint8_t *data;
    size_t size;
    char name[32]; /* "model.<hint>" */
} mem_fs;

typedef struct mem_file {
    const uint8_t *data;
    size_t size, pos;
} mem_file;

static size_t mem_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
    mem_file *m = (mem_file *)f->UserData;
    if (!size || !count) return 0;
    size_t left = m->size - m->pos, n = count;
    if (n > left / size) n = left / size;
    memcpy(buf, m->data + m->pos, n * size);
    m->pos += n * size;
    return n;
}

static size_t mem_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
    (void)f, (void)buf, (void)size, (void)count;
    return 0;
}

static size_t mem_tell(struct aiFile *f) { return ((mem_file *)f->UserData)->pos; }
static size_t mem_size(struct aiFile *f) { return ((mem_file *)f->UserData)->size; }
static void mem_flush(struct aiFile *f) { (void)f; }

static enum aiReturn mem_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
    mem_file *m = (mem_file *)f->UserData;
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? m->pos : m->size;
    if (offset > m->size - base) return aiReturn_FAILURE;
    m->pos = base + offset;
    return aiReturn_SUCCESS;
}

static struct aiFile *mem_open(struct aiFileIO *io, const char *name, const char *mode)
{
    mem_fs *fs = (mem_fs *)io->UserData;
    if (!name || !mode || mode[0] != 'r') return NULL;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strcmp(base, fs->name) != 0) return NULL; /* .mtl, textures, anything else: not served */
    struct aiFile *f = malloc(sizeof *f);
    mem_file *m = malloc(sizeof *m);
    if (!f || !m) {
        free(f);
        free(m);
        return NULL;
    }
    *m = (mem_file){.data = fs->data, .size = fs->size};
    *f = (struct aiFile){.ReadProc = mem_read, .WriteProc = mem_write, .TellProc = mem_tell, .FileSizeProc = mem_size,
                         .SeekProc = mem_seek, .FlushProc = mem_flush, .UserData = (aiUserData)m};
    return f;
}

static void mem_close(struct aiFileIO *io, struct aiFile *f)
{
    (void)io;
    if (!f) return;
    free(f->UserData);
    free(f);
}

/* ---- building the scene ---- */

typedef struct build {
    const struct aiScene *ai;
    ferry_scene *s;
    ferry_arena *a;
    const struct aiNode **ai_nodes; /* scene node i came from ai_nodes[i] */
    size_t node_count;
    ferry_error *err;
    bool collada;
} build;

static bool nomem(build *b)
{
    set_error(b->err, FERRY_ERR_LIMIT, "the scene needs more memory than the limit allows");
    return false;
}

static void *alloc_n(build *b, size_t count, size_t size)
{
    if (!count) return NULL;
    if (count > SIZE_MAX / size) return NULL;
    return ferry_arena_alloc(b->a, count * size);
}

static const char *str(build *b, const struct aiString *s)
{
    size_t n = s->length < MAXLEN ? s->length : MAXLEN - 1;
    char *out = ferry_arena_alloc(b->a, n + 1);
    if (out) memcpy(out, s->data, n);
    return out;
}

static size_t count_nodes(const struct aiNode *n, unsigned depth)
{
    if (!n || depth > 256) return 0;
    size_t c = 1;
    for (unsigned i = 0; i < n->mNumChildren; i++) c += count_nodes(n->mChildren[i], depth + 1);
    return c;
}

static void collect_nodes(build *b, const struct aiNode *n, int32_t parent, unsigned depth)
{
    if (!n || depth > 256) return;
    size_t idx = b->node_count++;
    b->ai_nodes[idx] = n;
    ferry_scene_node *sn = &b->s->nodes[idx];
    ferry_scene_node_init(sn);
    sn->has_parent = parent >= 0;
    sn->parent = parent >= 0 ? (uint32_t)parent : 0;
    sn->name = str(b, &n->mName);
    struct aiVector3D scale, pos;
    struct aiQuaternion rot;
    aiDecomposeMatrix(&n->mTransformation, &scale, &rot, &pos);
    sn->translation[0] = pos.x, sn->translation[1] = pos.y, sn->translation[2] = pos.z;
    sn->scale[0] = scale.x, sn->scale[1] = scale.y, sn->scale[2] = scale.z;
    float q = sqrtf(rot.x * rot.x + rot.y * rot.y + rot.z * rot.z + rot.w * rot.w);
    if (q > 0 && isfinite(q)) {
        sn->rotation[0] = rot.x / q, sn->rotation[1] = rot.y / q, sn->rotation[2] = rot.z / q, sn->rotation[3] = rot.w / q;
    }
    for (unsigned i = 0; i < n->mNumChildren; i++) collect_nodes(b, n->mChildren[i], (int32_t)idx, depth + 1);
}

static int32_t node_by_name(const build *b, const struct aiString *name)
{
    for (size_t i = 0; i < b->node_count; i++)
        if (b->ai_nodes[i]->mName.length == name->length && memcmp(b->ai_nodes[i]->mName.data, name->data, name->length) == 0)
            return (int32_t)i;
    return -1;
}

static bool convert_materials(build *b)
{
    const struct aiScene *ai = b->ai;
    ferry_scene *s = b->s;
    s->material_count = ai->mNumMaterials;
    s->materials = alloc_n(b, ai->mNumMaterials, sizeof *s->materials);
    s->images = alloc_n(b, ai->mNumMaterials, sizeof *s->images);
    if (ai->mNumMaterials && (!s->materials || !s->images)) return nomem(b);
    for (unsigned i = 0; i < ai->mNumMaterials; i++) {
        const struct aiMaterial *m = ai->mMaterials[i];
        ferry_scene_material *sm = &s->materials[i];
        ferry_scene_material_init(sm);
        struct aiString name;
        if (aiGetMaterialString(m, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS) sm->name = str(b, &name);
        struct aiColor4D c;
        if (aiGetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
            float v[4] = {c.r, c.g, c.b, c.a};
            for (int k = 0; k < 4; k++) sm->base_color_factor[k] = isfinite(v[k]) ? (v[k] < 0 ? 0 : v[k] > 1 ? 1 : v[k]) : 1;
        }
        struct aiString path;
        if (aiGetMaterialTexture(m, aiTextureType_DIFFUSE, 0, &path, NULL, NULL, NULL, NULL, NULL, NULL) == aiReturn_SUCCESS &&
            path.length) {
            /* The texture's file name without folders or extension: the
             * stem the ALO material names (its data is not loaded). */
            const char *p = str(b, &path);
            if (!p) return nomem(b);
            const char *base = p;
            for (const char *q = p; *q; q++)
                if (*q == '/' || *q == '\\') base = q + 1;
            char *stem = ferry_arena_strdup(b->a, base);
            if (!stem) return nomem(b);
            char *dot = strrchr(stem, '.');
            if (dot && dot != stem) *dot = 0;
            ferry_scene_image *img = &s->images[s->image_count];
            img->name = stem;
            img->mime_type = "image/png";
            img->source_path = p;
            sm->has_base_color_image = true;
            sm->base_color_image = (uint32_t)s->image_count++;
        }
    }
    return true;
}

/* One primitive from an Assimp mesh; skinned: joints/weights as indices
 * into `joints` (node indices, grown here). */
static bool convert_primitive(build *b, const struct aiMesh *m, ferry_scene_primitive *p, int32_t *joints, size_t *joint_count,
                              size_t joint_cap, float *ibm, const struct aiMatrix4x4 *fix)
{
    memset(p, 0, sizeof *p);
    p->mode = FERRY_PRIMITIVE_TRIANGLES;
    p->has_material = m->mMaterialIndex < b->ai->mNumMaterials;
    p->material = p->has_material ? m->mMaterialIndex : 0;
    size_t n = m->mNumVertices;
    p->vertex_count = n;
    float *pos = alloc_n(b, n, 3 * sizeof(float));
    if (n && !pos) return nomem(b);
    for (size_t v = 0; v < n; v++)
        pos[3 * v] = m->mVertices[v].x, pos[3 * v + 1] = m->mVertices[v].y, pos[3 * v + 2] = m->mVertices[v].z;
    p->positions = pos;
    if (m->mNormals) {
        float *nor = alloc_n(b, n, 3 * sizeof(float));
        if (n && !nor) return nomem(b);
        for (size_t v = 0; v < n; v++) {
            float x = m->mNormals[v].x, y = m->mNormals[v].y, z = m->mNormals[v].z, l = sqrtf(x * x + y * y + z * z);
            if (!(l > 0) || !isfinite(l)) x = 0, y = 0, z = 1, l = 1;
            nor[3 * v] = x / l, nor[3 * v + 1] = y / l, nor[3 * v + 2] = z / l;
        }
        p->normals = nor;
    }
    for (unsigned t = 0; t < AI_MAX_NUMBER_OF_TEXTURECOORDS && p->texcoord_count < 4 && m->mTextureCoords[t]; t++) {
        float *uv = alloc_n(b, n, 2 * sizeof(float));
        if (n && !uv) return nomem(b);
        /* Assimp's V runs up (OpenGL); glTF's runs down. */
        for (size_t v = 0; v < n; v++) uv[2 * v] = m->mTextureCoords[t][v].x, uv[2 * v + 1] = 1.0f - m->mTextureCoords[t][v].y;
        p->texcoords[p->texcoord_count++] = uv;
    }
    if (m->mColors[0]) {
        float *col = alloc_n(b, n, 4 * sizeof(float));
        if (n && !col) return nomem(b);
        for (size_t v = 0; v < n; v++)
            col[4 * v] = m->mColors[0][v].r, col[4 * v + 1] = m->mColors[0][v].g, col[4 * v + 2] = m->mColors[0][v].b,
                    col[4 * v + 3] = m->mColors[0][v].a;
        p->colors = col;
    }
    size_t tris = 0;
    for (unsigned f = 0; f < m->mNumFaces; f++)
        if (m->mFaces[f].mNumIndices == 3) tris++;
    uint32_t *idx = alloc_n(b, tris, 3 * sizeof(uint32_t));
    if (tris && !idx) return nomem(b);
    size_t k = 0;
    for (unsigned f = 0; f < m->mNumFaces; f++) {
        const struct aiFace *face = &m->mFaces[f];
        if (face->mNumIndices != 3) continue; /* points and lines (aiProcess_SortByPType keeps them apart) */
        for (int c = 0; c < 3; c++) {
            if (face->mIndices[c] >= n) {
                set_error(b->err, FERRY_ERR_MALFORMED, "mesh '%.64s' face %u names vertex %u of %zu",
                             m->mName.data, f, face->mIndices[c], n);
                return false;
            }
            idx[k++] = face->mIndices[c];
        }
    }
    p->indices = idx;
    p->index_count = k;
    if (m->mNumBones && joints) {
        uint16_t *jo = alloc_n(b, n, 4 * sizeof(uint16_t));
        float *we = alloc_n(b, n, 4 * sizeof(float));
        if (n && (!jo || !we)) return nomem(b);
        for (unsigned bi = 0; bi < m->mNumBones; bi++) {
            const struct aiBone *bone = m->mBones[bi];
            int32_t node = node_by_name(b, &bone->mName);
            if (node < 0) {
                set_error(b->err, FERRY_ERR_MALFORMED, "bone '%.64s' of mesh '%.64s' names no node",
                             bone->mName.data, m->mName.data);
                return false;
            }
            size_t j = 0;
            while (j < *joint_count && joints[j] != node) j++;
            if (j == *joint_count) {
                if (j >= joint_cap || j > UINT16_MAX) return nomem(b);
                joints[j] = node;
                struct aiMatrix4x4 off = bone->mOffsetMatrix;
                if (fix) aiMultiplyMatrix4(&off, fix); /* off = offset x fix */
                const struct aiMatrix4x4 *o = &off;
                const float rm[16] = {o->a1, o->a2, o->a3, o->a4, o->b1, o->b2, o->b3, o->b4,
                                      o->c1, o->c2, o->c3, o->c4, o->d1, o->d2, o->d3, o->d4};
                for (int r = 0; r < 4; r++)
                    for (int c = 0; c < 4; c++) ibm[16 * j + 4 * c + r] = rm[4 * r + c]; /* column-major */
                (*joint_count)++;
            }
            for (unsigned w = 0; w < bone->mNumWeights; w++) {
                unsigned v = bone->mWeights[w].mVertexId;
                float wt = bone->mWeights[w].mWeight;
                if (v >= n || !(wt > 0)) continue;
                /* keep the 4 largest */
                int slot = 0;
                for (int s = 1; s < 4; s++)
                    if (we[4 * v + s] < we[4 * v + slot]) slot = s;
                if (wt > we[4 * v + slot]) we[4 * v + slot] = wt, jo[4 * v + slot] = (uint16_t)j;
            }
        }
        for (size_t v = 0; v < n; v++) {
            float sum = we[4 * v] + we[4 * v + 1] + we[4 * v + 2] + we[4 * v + 3];
            if (sum > 0)
                for (int s = 0; s < 4; s++) we[4 * v + s] /= sum;
            else
                we[4 * v] = 1; /* unweighted: follows the first joint */
        }
        p->joints = jo;
        p->weights = we;
    }
    return true;
}

static bool convert_meshes(build *b)
{
    const struct aiScene *ai = b->ai;
    ferry_scene *s = b->s;
    size_t with_mesh = 0;
    for (size_t i = 0; i < b->node_count; i++)
        if (b->ai_nodes[i]->mNumMeshes) with_mesh++;
    s->meshes = alloc_n(b, with_mesh, sizeof *s->meshes);
    s->skins = alloc_n(b, with_mesh, sizeof *s->skins);
    if (with_mesh && (!s->meshes || !s->skins)) return nomem(b);
    for (size_t i = 0; i < b->node_count; i++) {
        const struct aiNode *an = b->ai_nodes[i];
        if (!an->mNumMeshes) continue;
        ferry_scene_mesh *sm = &s->meshes[s->mesh_count];
        sm->name = s->nodes[i].name;
        sm->primitives = alloc_n(b, an->mNumMeshes, sizeof *sm->primitives);
        if (!sm->primitives) return nomem(b);
        size_t bones = 0;
        for (unsigned k = 0; k < an->mNumMeshes; k++)
            if (an->mMeshes[k] < ai->mNumMeshes) bones += ai->mMeshes[an->mMeshes[k]]->mNumBones;
        int32_t *joints = bones ? alloc_n(b, bones, sizeof *joints) : NULL;
        float *ibm = bones ? alloc_n(b, bones, 16 * sizeof(float)) : NULL;
        if (bones && (!joints || !ibm)) return nomem(b);
        size_t joint_count = 0;
        /* Collada (Assimp 5.2): the bone offsets are the file's inverse
         * bind matrices (world -> joint, the world below Assimp's up-axis
         * root), while the vertices are in the mesh node's space; glTF's
         * inverse bind matrices map the vertices as stored, so the node's
         * transform up to (not including) the root is appended. */
        struct aiMatrix4x4 fix, *fixp = NULL;
        if (b->collada && bones) {
            aiIdentityMatrix4(&fix);
            for (const struct aiNode *p = an; p && p->mParent; p = p->mParent) {
                struct aiMatrix4x4 t = p->mTransformation;
                aiMultiplyMatrix4(&t, &fix); /* t = local x fix */
                fix = t;
            }
            fixp = &fix;
        }
        for (unsigned k = 0; k < an->mNumMeshes; k++) {
            if (an->mMeshes[k] >= ai->mNumMeshes) continue;
            const struct aiMesh *m = ai->mMeshes[an->mMeshes[k]];
            if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue; /* points, lines: not carried */
            if (!convert_primitive(b, m, &sm->primitives[sm->primitive_count], joints, &joint_count, bones, ibm, fixp)) return false;
            sm->primitive_count++;
        }
        if (!sm->primitive_count) continue;
        s->nodes[i].has_mesh = true;
        s->nodes[i].mesh = (uint32_t)s->mesh_count++;
        if (joint_count) {
            ferry_scene_skin *sk = &s->skins[s->skin_count];
            sk->name = s->nodes[i].name;
            sk->joints = joints;
            sk->joint_count = joint_count;
            sk->inverse_bind_matrices = ibm;
            sk->has_skeleton = false;
            s->nodes[i].has_skin = true;
            s->nodes[i].skin = (uint32_t)s->skin_count++;
        }
    }
    return true;
}

/* Keys with strictly increasing times (later duplicates dropped). */
static bool convert_animations(build *b)
{
    const struct aiScene *ai = b->ai;
    ferry_scene *s = b->s;
    s->animations = alloc_n(b, ai->mNumAnimations, sizeof *s->animations);
    if (ai->mNumAnimations && !s->animations) return nomem(b);
    for (unsigned i = 0; i < ai->mNumAnimations; i++) {
        const struct aiAnimation *an = ai->mAnimations[i];
        double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
        ferry_scene_animation *sa = &s->animations[s->animation_count];
        sa->name = str(b, &an->mName);
        sa->channels = alloc_n(b, (size_t)an->mNumChannels * 3, sizeof *sa->channels);
        if (an->mNumChannels && !sa->channels) return nomem(b);
        for (unsigned c = 0; c < an->mNumChannels; c++) {
            const struct aiNodeAnim *na = an->mChannels[c];
            int32_t node = node_by_name(b, &na->mNodeName);
            if (node < 0) continue;
            for (int path = 0; path < 3; path++) {
                unsigned keys = path == 0 ? na->mNumPositionKeys : path == 1 ? na->mNumRotationKeys : na->mNumScalingKeys;
                if (!keys) continue;
                int width = path == 1 ? 4 : 3;
                float *times = alloc_n(b, keys, sizeof(float));
                float *values = alloc_n(b, keys, (size_t)width * sizeof(float));
                if (!times || !values) return nomem(b);
                size_t k = 0;
                for (unsigned j = 0; j < keys; j++) {
                    double t = (path == 0 ? na->mPositionKeys[j].mTime : path == 1 ? na->mRotationKeys[j].mTime : na->mScalingKeys[j].mTime) / tps;
                    if (!isfinite(t) || t < 0 || (k && (float)t <= times[k - 1])) continue;
                    times[k] = (float)t;
                    if (path == 1) {
                        const struct aiQuaternion *q = &na->mRotationKeys[j].mValue;
                        float l = sqrtf(q->x * q->x + q->y * q->y + q->z * q->z + q->w * q->w);
                        if (!(l > 0)) l = 1;
                        values[4 * k] = q->x / l, values[4 * k + 1] = q->y / l, values[4 * k + 2] = q->z / l, values[4 * k + 3] = q->w / l;
                    } else {
                        const struct aiVector3D *v = path == 0 ? &na->mPositionKeys[j].mValue : &na->mScalingKeys[j].mValue;
                        values[3 * k] = v->x, values[3 * k + 1] = v->y, values[3 * k + 2] = v->z;
                    }
                    k++;
                }
                if (!k) continue;
                ferry_scene_channel *ch = &sa->channels[sa->channel_count++];
                ch->node = node;
                ch->path = path == 0 ? FERRY_ANIM_TRANSLATION : path == 1 ? FERRY_ANIM_ROTATION : FERRY_ANIM_SCALE;
                ch->interpolation = FERRY_INTERP_LINEAR;
                ch->times = times;
                ch->key_count = k;
                ch->values = values;
            }
        }
        if (sa->channel_count) s->animation_count++;
    }
    return true;
}

ferry_result ferry_assimp_read(const uint8_t *data, size_t size, const ferry_assimp_read_options *options, ferry_scene **out,
                               ferry_error *err)
{
    set_error(err, FERRY_OK, "%s", "");
    if (out) *out = NULL;
    if (!out || (!data && size) || !options || !options->format_hint || !*options->format_hint ||
        strlen(options->format_hint) > 16) {
        set_error(err, FERRY_ERR_ARGUMENT, "ferry_assimp_read needs data, options with a format hint and out");
        return FERRY_ERR_ARGUMENT;
    }
    for (const char *h = options->format_hint; *h; h++)
        if (*h == '/' || *h == '\\' || *h == '.') {
            set_error(err, FERRY_ERR_ARGUMENT, "the format hint is an extension without a dot");
            return FERRY_ERR_ARGUMENT;
        }
    size_t limit = options->read.memory_limit;
    if (!limit) {
        limit = size > (FERRY_DEFAULT_MEMORY_CAP - (1u << 20)) / 16 ? FERRY_DEFAULT_MEMORY_CAP : 16 * size + (1u << 20);
    }
    mem_fs fs = {data, size, ""};
    snprintf(fs.name, sizeof fs.name, "model.%s", options->format_hint);
    struct aiFileIO io = {mem_open, mem_close, (aiUserData)&fs};
    const struct aiScene *ai = aiImportFileEx(fs.name,
                                              aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType |
                                                  aiProcess_ValidateDataStructure,
                                              &io);
    if (!ai) {
        set_error(err, FERRY_ERR_MALFORMED, "Assimp (%s importer) could not read it: %.180s",
                     options->format_hint, aiGetErrorString());
        return FERRY_ERR_MALFORMED;
    }
    ferry_result rc = FERRY_ERR_MALFORMED;
    ferry_arena *a = ferry_arena_create(limit);
    ferry_scene *s = a ? ferry_arena_alloc(a, sizeof *s) : NULL;
    if (!s) {
        set_error(err, FERRY_ERR_NOMEM, "out of memory");
        ferry_arena_destroy(a);
        aiReleaseImport(ai);
        return FERRY_ERR_NOMEM;
    }
    s->arena = a;
    build b = {ai, s, a, NULL, 0, err, strcmp(options->format_hint, "dae") == 0 || strcmp(options->format_hint, "DAE") == 0};
    size_t nodes = count_nodes(ai->mRootNode, 0);
    if (!ai->mRootNode || !ai->mNumMeshes) {
        set_error(err, FERRY_ERR_MALFORMED, "the file holds no mesh");
        goto fail;
    }
    b.ai_nodes = alloc_n(&b, nodes, sizeof *b.ai_nodes);
    s->nodes = alloc_n(&b, nodes, sizeof *s->nodes);
    if (!b.ai_nodes || !s->nodes) {
        nomem(&b);
        goto fail;
    }
    collect_nodes(&b, ai->mRootNode, -1, 0);
    s->node_count = b.node_count;
    if (!convert_materials(&b) || !convert_meshes(&b) || !convert_animations(&b)) goto fail;
    aiReleaseImport(ai);
    *out = s;
    return FERRY_OK;
fail:
    rc = err && err->code != FERRY_OK ? err->code : FERRY_ERR_MALFORMED;
    aiReleaseImport(ai);
    ferry_arena_destroy(a);
    return rc;
}
