// FakeLlamaServer, continued: the slot API (GET /slots, POST /slots/{id}?action=...), answered
// from FakeSlots after the configured save or restore time, as the model's child server would.
#include "fakellamaserver.h"

#include "fakehttpconnection.h"
#include "fakemodelregistry.h"
#include "fakeslots.h"

#include <QTimer>

namespace switchyard::fake {

void FakeLlamaServer::answerSlots(const Exchange &exchange)
{
    const qint64 seq = exchange.seq;
    const FakeModelState *state = m_registry->model(exchange.model);
    const int contextSize = state ? state->contextSize : m_options.contextSize;
    if (exchange.slotAction.isEmpty() && exchange.slotId.isEmpty()) {
        m_exchanges.remove(seq);
        answerRouted(seq, exchange.connection, exchange.wantsClose, m_slots->listJson(exchange.model, contextSize));
        return;
    }
    // The file is written (or read) at once; the answer comes when the box would be done.
    const FakeSlots::Answer answer =
        m_slots->action(exchange.model, exchange.slotId, exchange.slotAction, exchange.body, contextSize);
    const std::chrono::milliseconds delay = answer.status != 200 ? std::chrono::milliseconds(0)
        : m_slots->isSave(exchange.slotAction)                   ? m_options.slotSaveDelay
        : exchange.slotAction == u"restore"                       ? m_options.slotRestoreDelay
                                                                  : std::chrono::milliseconds(0);
    auto send = [this, seq, answer] {
        const auto it = m_exchanges.find(seq);
        if (it == m_exchanges.end())
            return;   // the engine stopped or the client left meanwhile
        const QPointer<FakeHttpConnection> connection = it->connection;
        const bool wantsClose = it->wantsClose;
        m_exchanges.erase(it);
        if (!connection)
            return;
        if (answer.status == 0) {
            connection->drop();
            markFinished(seq);
        } else if (answer.status == 200)
            answerRouted(seq, connection, wantsClose, answer.body);
        else
            answerChildError(seq, connection, answer.status, answer.body);
    };
    if (delay <= std::chrono::milliseconds(0))
        send();
    else
        QTimer::singleShot(delay, this, send);
}

} // namespace switchyard::fake
