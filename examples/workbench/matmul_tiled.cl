// The edit for examples/matmul_range.py: matmul tiled through local memory.
// Each work-group loads a TILE x TILE block of A and of B once and every
// work-item reads them from there, instead of reading its whole row and
// column from global memory. Launched as recorded: (n, n) work-items in
// groups of (16, 16), so TILE is 16.
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul(__global const float* A, __global const float* B, __global float* C,
                     const int n) {
  __local float a_tile[TILE][TILE];
  __local float b_tile[TILE][TILE];
  const int col = get_global_id(0), row = get_global_id(1);
  const int lc = get_local_id(0), lr = get_local_id(1);
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    a_tile[lr][lc] = A[row * n + t + lc];
    b_tile[lr][lc] = B[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += a_tile[lr][k] * b_tile[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = sum;
}
