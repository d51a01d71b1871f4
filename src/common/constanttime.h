#pragma once

#include <QByteArrayView>

namespace switchyard {

// Whether two secrets are equal, in a time that depends on neither their contents nor where they
// first differ: both are hashed (SHA-256) and every byte of the digests is compared. Hashing
// first also hides the configured secret's length. Use it for every key and token a client
// presents; QByteArray's operator== stops at the first differing byte.
bool constantTimeEquals(QByteArrayView presented, QByteArrayView expected);

} // namespace switchyard
