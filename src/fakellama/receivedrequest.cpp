#include "receivedrequest.h"

namespace switchyard::fake {

QByteArray ReceivedRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

} // namespace switchyard::fake
