/* Internal: the small math every converter and format shares. 4x4
 * matrices are column-major floats (glTF's and the scene's convention)
 * unless the name says `d` (row-major doubles, p' = M p, as ALM stores
 * them); quaternions are x, y, z, w. Not a public header. */
#ifndef FERRY_CORE_MATH_H
#define FERRY_CORE_MATH_H

#include <math.h>
#include <stdbool.h>

void fy_mat4_identity(float m[16]);
/* out = a * b; accumulates in double so long bone chains lose as little
 * precision as the float inputs allow. out may alias a or b. */
void fy_mat4_mul(const float a[16], const float b[16], float out[16]);
/* False (and identity in out) when the matrix is singular. */
bool fy_mat4_invert(const float m[16], float out[16]);
void fy_mat4_from_trs(const float t[3], const float q[4], const float s[3], float out[16]);

/* How far from orthogonal (|dot| of the normalized columns) the columns of
 * a matrix may be before fy_mat4_to_trs calls it sheared: the converters'
 * value (float32 game data); the glTF reader asks for 1e-4. */
#define FY_TRS_SHEAR_TOLERANCE 1e-3

/* The one TRS decomposition. Splits an affine matrix into translation,
 * rotation and scale. A mirror (negative determinant) becomes a negative
 * scale on Z; shear cannot be expressed and is dropped (the rotation is
 * taken from the normalized columns, w >= 0). Returns false when shear
 * (columns further from orthogonal than shear_tolerance) or a zero axis was
 * found. The bottom row is not looked at. */
bool fy_mat4_to_trs(const float m[16], float t[3], float q[4], float s[3], double shear_tolerance);
/* The nearest TRS of a row-major double affine matrix where shear makes
 * fy_mat4_to_trs's answer poor: the polar rotation (closest rotation) and
 * the scales along its axes; a collapsed axis falls back to fy_mat4_to_trs.
 * Returns how far the TRS rebuilt misses the matrix, relative to its
 * largest entry: ~1e-7 for a clean TRS, more for shear or a projective
 * bottom row, INFINITY when it is not finite (then the TRS is identity). */
double fy_mat4d_to_trs_nearest(const double m[16], float t[3], float q[4], float s[3]);

void fy_mat4_point(const float m[16], const float p[3], float out[3]);
void fy_mat4_vector(const float m[16], const float v[3], float out[3]);
/* Unit length, or identity when the length is zero or not finite. */
void fy_quat_normalize(float q[4]);
/* Dot product, summed in double: the cosine of half the angle between two
 * unit quaternions (negative: on opposite hemispheres). */
double fy_quat_dot(const float a[4], const float b[4]);
/* Rotation matrix (3x3 inside a column-major 4x4) to unit quaternion, w >= 0. */
void fy_quat_from_mat4(const float m[16], float q[4]);

/* Row-major doubles: out = a * b (out must not alias a or b). */
void fy_mat4d_mul(const double a[16], const double b[16], double out[16]);
/* Lengths, summed in double. The vector ones are defined here, inline:
 * the converters call them per vertex (tangents, normals), where a call
 * each cost measurably more than the arithmetic (docs/benchmarks.md). */
static inline double fy_vec3_length(const float v[3])
{
    return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
}
static inline double fy_vec3d_length(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double fy_quat_length(const float q[4]);
/* 3-vectors. out may alias a or b (the result is formed before it is
 * stored). */
static inline void fy_vec3_cross(const float a[3], const float b[3], float out[3])
{
    float x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x, out[1] = y, out[2] = z;
}
static inline void fy_vec3d_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x, out[1] = y, out[2] = z;
}

#endif
