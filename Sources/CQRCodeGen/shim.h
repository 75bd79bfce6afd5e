#include <qrcodegen/qrcodegen.h>

// NB: qrcodegen_BUFFER_LEN_MAX expands to a function-like macro, which Swift cannot import;
// this is the buffer size a QR code of any version needs.
static const int cqrcodegen_buffer_length = qrcodegen_BUFFER_LEN_MAX;
