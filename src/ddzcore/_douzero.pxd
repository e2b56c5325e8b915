# cython: language_level=3
"""C-level interface of DouZero's features (``_douzero.pyx``), for other Cython modules:

    from ddzcore._douzero cimport encode_rows

``d`` is a decision row of ``DECISION_FIELDS`` (30 words).  nogil, never raises.
"""

from ddzcore.bits cimport u64

# Decision d's x_batch rows for the n card words `actions` (row j at
# x + j * stride: 373 columns for the landlord, 484 for a farmer) and its z
# (5 x 162 = 810 floats), as ``encode`` writes them, z not repeated per row.
cdef void encode_rows(const u64* d, const u64* actions, Py_ssize_t n, Py_ssize_t stride,
                      float* x, float* z) noexcept nogil
