/* The shared math (core_math.h): matrices, quaternions, the TRS
 * decomposition. Every converter and format module uses these, so a
 * rotation is taken apart the same way wherever it comes from. */
#include "core_math.h"

#include <math.h>
#include <string.h>

void fy_mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void fy_mat4_mul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int c = 0; c < 4; c++) {
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += (double)a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = (float)s;
        }
    }
    memcpy(out, r, sizeof r);
}

bool fy_mat4_invert(const float m[16], float out[16])
{
    /* Gauss-Jordan in double: bone matrices are affine and well conditioned,
     * but the general form keeps this usable for anything. */
    double a[4][8];
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][c + 4] = r == c ? 1.0 : 0.0;
        }
    }
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        if (!(fabs(a[p][c]) > 1e-20)) {
            fy_mat4_identity(out);
            return false;
        }
        if (p != c) {
            for (int k = 0; k < 8; k++) {
                double t = a[c][k];
                a[c][k] = a[p][k];
                a[p][k] = t;
            }
        }
        double inv = 1.0 / a[c][c];
        for (int k = 0; k < 8; k++) a[c][k] *= inv;
        for (int r = 0; r < 4; r++) {
            if (r == c) continue;
            double f = a[r][c];
            if (f == 0) continue;
            for (int k = 0; k < 8; k++) a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) out[c * 4 + r] = (float)a[r][c + 4];
    return true;
}

void fy_mat4_from_trs(const float t[3], const float q[4], const float s[3], float out[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                   2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = (float)(r[c * 3 + row] * s[c]);
        out[c * 4 + 3] = 0.0f;
    }
    out[12] = t[0];
    out[13] = t[1];
    out[14] = t[2];
    out[15] = 1.0f;
}

void fy_quat_normalize(float q[4])
{
    double n = fy_quat_length(q);
    if (!(n > 1e-12) || !isfinite(n)) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        return;
    }
    for (int i = 0; i < 4; i++) q[i] = (float)(q[i] / n);
}

void fy_quat_from_mat4(const float m[16], float q[4])
{
    /* Shepperd's method: pick the largest of the four squared components
     * so the division is well conditioned. m[c*4+r] is row r, column c. */
    double m00 = m[0], m11 = m[5], m22 = m[10];
    double tr = m00 + m11 + m22;
    double x, y, z, w;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        w = 0.25 * s;
        x = (m[6] - m[9]) / s;
        y = (m[8] - m[2]) / s;
        z = (m[1] - m[4]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2;
        w = (m[6] - m[9]) / s;
        x = 0.25 * s;
        y = (m[4] + m[1]) / s;
        z = (m[8] + m[2]) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2;
        w = (m[8] - m[2]) / s;
        x = (m[4] + m[1]) / s;
        y = 0.25 * s;
        z = (m[9] + m[6]) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2;
        w = (m[1] - m[4]) / s;
        x = (m[8] + m[2]) / s;
        y = (m[9] + m[6]) / s;
        z = 0.25 * s;
    }
    /* One sign for every conversion (w >= 0) keeps rest poses comparable. */
    if (w < 0) {
        x = -x, y = -y, z = -z, w = -w;
    }
    q[0] = (float)x, q[1] = (float)y, q[2] = (float)z, q[3] = (float)w;
    fy_quat_normalize(q);
}

bool fy_mat4_to_trs(const float m[16], float t[3], float q[4], float s[3], double shear_tolerance)
{
    bool clean = true;
    t[0] = m[12], t[1] = m[13], t[2] = m[14];
    float r[16];
    fy_mat4_identity(r);
    for (int c = 0; c < 3; c++) {
        double len = sqrt((double)m[c * 4] * m[c * 4] + (double)m[c * 4 + 1] * m[c * 4 + 1] +
                          (double)m[c * 4 + 2] * m[c * 4 + 2]);
        if (!(len > 1e-12) || !isfinite(len)) {
            /* A collapsed axis: keep a unit axis so the rotation stays valid. */
            clean = false;
            s[c] = 0.0f;
            continue;
        }
        s[c] = (float)len;
        for (int k = 0; k < 3; k++) r[c * 4 + k] = (float)(m[c * 4 + k] / len);
    }
    double det = (double)r[0] * ((double)r[5] * r[10] - (double)r[9] * r[6]) -
                 (double)r[4] * ((double)r[1] * r[10] - (double)r[9] * r[2]) +
                 (double)r[8] * ((double)r[1] * r[6] - (double)r[5] * r[2]);
    if (det < 0) {
        /* A mirror: Z carries the sign, so the rest is a proper rotation. */
        s[2] = -s[2];
        for (int k = 0; k < 3; k++) r[8 + k] = -r[8 + k];
    }
    /* Shear shows as columns that are not orthogonal. */
    for (int a = 0; a < 3; a++) {
        for (int c = a + 1; c < 3; c++) {
            double d = (double)r[a * 4] * r[c * 4] + (double)r[a * 4 + 1] * r[c * 4 + 1] +
                       (double)r[a * 4 + 2] * r[c * 4 + 2];
            if (fabs(d) > shear_tolerance) clean = false;
        }
    }
    fy_quat_from_mat4(r, q);
    return clean;
}

void fy_mat4_point(const float m[16], const float p[3], float out[3])
{
    float r[3];
    for (int k = 0; k < 3; k++)
        r[k] = (float)((double)m[k] * p[0] + (double)m[4 + k] * p[1] + (double)m[8 + k] * p[2] + m[12 + k]);
    memcpy(out, r, sizeof r);
}

void fy_mat4_vector(const float m[16], const float v[3], float out[3])
{
    float r[3];
    for (int k = 0; k < 3; k++)
        r[k] = (float)((double)m[k] * v[0] + (double)m[4 + k] * v[1] + (double)m[8 + k] * v[2]);
    memcpy(out, r, sizeof r);
}

/* ---- polar decomposition (nearest TRS of a sheared matrix) ---- */

static double det3(const double a[9])
{
    return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
}

/* The rotation closest to a 3x3 matrix of positive determinant (polar
 * decomposition by Higham's averaging iteration). False when singular. */
static bool closest_rotation(const double a[9], double r[9])
{
    memcpy(r, a, 9 * sizeof *r);
    for (int iter = 0; iter < 60; iter++) {
        double det = det3(r);
        if (!(fabs(det) > 1e-300) || !isfinite(det)) return false;
        /* r^-T = cofactor(r) / det */
        double cof[9] = {r[4] * r[8] - r[5] * r[7], r[5] * r[6] - r[3] * r[8], r[3] * r[7] - r[4] * r[6],
                         r[2] * r[7] - r[1] * r[8], r[0] * r[8] - r[2] * r[6], r[1] * r[6] - r[0] * r[7],
                         r[1] * r[5] - r[2] * r[4], r[2] * r[3] - r[0] * r[5], r[0] * r[4] - r[1] * r[3]};
        double change = 0;
        for (int k = 0; k < 9; k++) {
            double n = 0.5 * (r[k] + cof[k] / det);
            change = fmax(change, fabs(n - r[k]));
            r[k] = n;
        }
        if (change < 1e-15) break;
    }
    return true;
}

/* See core_math.h. */
double fy_mat4d_to_trs_nearest(const double m[16], float t[3], float q[4], float s[3])
{
    double a[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a[r * 3 + c] = m[r * 4 + c];
    double flip = det3(a) < 0 ? -1.0 : 1.0;
    for (int r = 0; r < 3; r++) a[r * 3 + 2] *= flip;
    double rot[9];
    float f[16];
    if (closest_rotation(a, rot)) {
        for (int c = 0; c < 3; c++) {
            double sc = 0;
            for (int r = 0; r < 3; r++) sc += rot[r * 3 + c] * a[r * 3 + c];
            s[c] = (float)sc;
        }
        s[2] = (float)(s[2] * flip);
        fy_mat4_identity(f);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) f[c * 4 + r] = (float)rot[r * 3 + c];
        fy_quat_from_mat4(f, q);
    } else {
        /* A collapsed axis: the generic split keeps a valid rotation. */
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) f[c * 4 + r] = (float)m[r * 4 + c];
        fy_mat4_to_trs(f, t, q, s, FY_TRS_SHEAR_TOLERANCE);
    }
    t[0] = (float)m[3], t[1] = (float)m[7], t[2] = (float)m[11];
    bool finite = true;
    for (int k = 0; k < 4; k++) finite &= isfinite(q[k]) && (k == 3 || (isfinite(t[k]) && isfinite(s[k])));
    if (!finite) {
        t[0] = t[1] = t[2] = 0;
        q[0] = q[1] = q[2] = 0, q[3] = 1;
        s[0] = s[1] = s[2] = 1;
        return INFINITY;
    }
    fy_mat4_from_trs(t, q, s, f);
    double size = 1, miss = 0;
    for (int k = 0; k < 16; k++) size = fmax(size, fabs(m[k]));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) miss = fmax(miss, fabs(m[r * 4 + c] - f[c * 4 + r]));
    return isfinite(miss) ? miss / size : INFINITY;
}

void fy_mat4d_mul(const double a[16], const double b[16], double out[16])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out[4 * r + c] = a[4 * r] * b[c] + a[4 * r + 1] * b[4 + c] + a[4 * r + 2] * b[8 + c] + a[4 * r + 3] * b[12 + c];
}

double fy_quat_dot(const float a[4], const float b[4])
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
}

double fy_quat_length(const float q[4]) { return sqrt(fy_quat_dot(q, q)); }
