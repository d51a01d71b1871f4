#include "window/requestdetailspane.h"

#include "journal/activerequests.h"
#include "journal/clientapp.h"
#include "models/requestlogfilterproxy.h"
#include "journal/journalformat.h"
#include "shared/failurewords.h"
#include "shared/recordwords.h"
#include "shared/statuspalette.h"
#include "store/requestlogmodel.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

RequestDetailsPane::RequestDetailsPane(QWidget *parent)
    : QWidget(parent)
    , m_heading(new QLabel(this))
    , m_placeholder(new QLabel(tr("Select a request to see its details."), this))
    , m_fieldsScroll(new QScrollArea(this))
    , m_fields(new QWidget(this))
    , m_journal(new QLabel(this))
{
    QFont headingFont = font();
    headingFont.setBold(true);
    headingFont.setPointSizeF(font().pointSizeF() * 1.1);
    m_heading->setFont(headingFont);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);

    auto *grid = new QGridLayout(m_fields);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(4);
    int row = 0;
    addField(u"status"_s, tr("Status"), grid, row++, 0);
    addField(u"time"_s, tr("Started"), grid, row++, 0);
    addField(u"route"_s, tr("Served by"), grid, row++, 0);
    addField(u"duration"_s, tr("Duration"), grid, row++, 0);
    addField(u"wait"_s, tr("Waited"), grid, row++, 0);
    addField(u"waiting"_s, tr("Waiting"), grid, row++, 0);
    addField(u"ttfb"_s, tr("First byte"), grid, row++, 0);
    addField(u"cache"_s, tr("Prompt cache"), grid, row++, 0);
    addField(u"tokens"_s, tr("Tokens"), grid, row++, 0);
    addField(u"bytes"_s, tr("Sent"), grid, row++, 0);
    addField(u"bytesIn"_s, tr("Received"), grid, row++, 0);
    addField(u"client"_s, tr("Client"), grid, row++, 0);
    addField(u"app"_s, tr("App"), grid, row++, 0);
    addField(u"agent"_s, tr("User agent"), grid, row++, 0);
    addField(u"error"_s, tr("Relay error"), grid, row++, 0);
    grid->setColumnStretch(1, 1);

    m_journal->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_journal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_journal->setTextFormat(Qt::PlainText);
    m_journal->setWordWrap(true);
    m_journal->setForegroundRole(QPalette::PlaceholderText);
    m_journal->setToolTip(tr("This request as the journal writes it"));

    // The fields scroll in a short window; the heading and the journal line stay in view.
    auto *fieldsPage = new QWidget(this);
    auto *fieldsLayout = new QVBoxLayout(fieldsPage);
    fieldsLayout->setContentsMargins(0, 0, 0, 0);
    fieldsLayout->addWidget(m_fields);
    fieldsLayout->addStretch();
    m_fieldsScroll->setWidget(fieldsPage);
    m_fieldsScroll->setWidgetResizable(true);
    m_fieldsScroll->setFrameShape(QFrame::NoFrame);
    m_fieldsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_fieldsScroll->viewport()->setAutoFillBackground(false);
    fieldsPage->setAutoFillBackground(false);

    // The journal line comes before the fields and the fields give way to it: on a short pane
    // (1366×768 leaves it about 150 px) the line stays whole and the fields scroll.
    m_fieldsScroll->setMinimumHeight(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addWidget(m_heading);
    layout->addWidget(m_journal);
    layout->addWidget(m_fieldsScroll, 1);
    layout->addWidget(m_placeholder, 1);
    clear();
}

QLabel *RequestDetailsPane::addField(const QString &key, const QString &title, QGridLayout *grid, int row, int column)
{
    auto *caption = new QLabel(title, m_fields);
    caption->setForegroundRole(QPalette::PlaceholderText);
    caption->setAlignment(Qt::AlignRight | Qt::AlignTop);
    auto *value = new QLabel(m_fields);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setTextFormat(key == "status"_L1 ? Qt::RichText : Qt::PlainText);   // clients write the rest
    value->setWordWrap(true);
    value->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    grid->addWidget(caption, row, column);
    grid->addWidget(value, row, column + 1);
    m_values.insert(key, value);
    return value;
}

void RequestDetailsPane::clear()
{
    m_heading->clear();
    m_heading->hide();
    m_fieldsScroll->hide();
    m_journal->hide();
    m_placeholder->show();
}

QString RequestDetailsPane::fieldText(const QString &field) const
{
    if (field == "heading"_L1)
        return m_heading->text();
    if (field == "journal"_L1)
        return m_journal->text();
    const QLabel *label = m_values.value(field);
    return label ? label->text() : QString();
}

void RequestDetailsPane::showRecord(const RequestRecord &r, std::optional<RequestPhase> live)
{
    m_placeholder->hide();
    m_heading->show();
    m_fieldsScroll->show();
    m_journal->show();
    m_heading->setText(r.model.isEmpty() ? u"%1 %2"_s.arg(r.method, r.path)
                                         : u"%1 %2 · %3"_s.arg(r.method, r.path, r.model));

    const auto severity = live ? RequestLogModel::Severity::InProgress : RequestLogModel::severity(r);
    const QColor color = RequestLogFilterProxy::severityColor(severity);
    QString status = r.status ? QString::number(r.status) : tr("no answer (client went away)");
    if (live)
        status = RequestLogModel::liveStatusText(*live, r);
    else if (r.clientLeft())
        status = r.status ? tr("aborted by the client after %1").arg(r.status) : tr("aborted by the client before an answer");
    m_values[u"status"_s]->setText(u"<span style=\"color:%1\">●</span> <b>%2</b>"_s.arg(color.name(), status.toHtmlEscaped()));
    m_values[u"time"_s]->setText(QLocale().toString(r.startedAt, u"yyyy-MM-dd HH:mm:ss.zzz"_s));
    m_values[u"route"_s]->setText(r.host.isEmpty() ? tr("the relay itself")
                                  : r.engine.isEmpty() ? tr("host %1").arg(r.host)
                                                       : tr("host %1, engine %2").arg(r.host, r.engine));
    const auto now = std::chrono::steady_clock::now();
    m_values[u"duration"_s]->setText(live ? tr("%1 so far").arg(RequestLogModel::durationText(now - r.startedSteady))
                                          : RequestLogModel::durationText(r.duration));
    const auto waited = live ? ActiveRequests::waitedSoFar(r, now) : r.waited;
    QString wait = tr("—");
    if (!r.waitReason.isNone())
        wait = tr("%1 for %2").arg(RequestLogModel::durationText(waited), RequestLogModel::waitText(r.waitReason));
    m_values[u"wait"_s]->setText(wait);
    // A request that waits now: for what, and the latest its host switches for it.
    const QString waiting = live ? RequestLogModel::waitingText(*live, r, QDateTime::currentDateTime()) : QString();
    m_values[u"waiting"_s]->setText(waiting.isEmpty() ? tr("—") : waiting);
    m_values[u"ttfb"_s]->setText(r.timeToFirstByte && r.bytesOut > 0 ? RequestLogModel::durationText(*r.timeToFirstByte)
                                                                     : tr("—"));
    // The first request for a model after a switch back: its slots were restored before it went out.
    m_values[u"cache"_s]->setText(r.restoredPromptTokens > 0
                                      ? tr("served from a restored cache (%1 tokens restored before it went out)")
                                            .arg(QLocale().toString(r.restoredPromptTokens))
                                      : tr("—"));
    QString tokens = tr("—");
    if (r.streamedTokens && r.tokensPerSecond)
        tokens = tr("%1 at %2 tokens/s").arg(*r.streamedTokens).arg(QLocale().toString(*r.tokensPerSecond, 'f', 1));
    else if (r.streamedTokens)
        tokens = QString::number(*r.streamedTokens);
    m_values[u"tokens"_s]->setText(tokens);
    m_values[u"bytes"_s]->setText(QLocale().formattedDataSize(r.bytesOut));
    m_values[u"bytesIn"_s]->setText(QLocale().formattedDataSize(r.bytesIn));
    m_values[u"client"_s]->setText(JournalFormat::clientAddress(r.clientAddress));
    m_values[u"app"_s]->setText(RequestLogModel::appName(clientAppFromUserAgent(r.userAgent)));
    m_values[u"agent"_s]->setText(r.userAgent.isEmpty() ? tr("—") : r.userAgent);
    // The record is English (the store keeps it so); the window says it in the user's language:
    // from its facts when the history kept them (a host's refusal), else from the words.
    m_values[u"error"_s]->setText(r.relayError.isEmpty()     ? tr("—")
                                  : !r.relayFacts.isEmpty() ? FailureWords::recorded(r.relayFacts, r.relayError)
                                                            : RecordWords::say(r.relayError));
    m_values[u"error"_s]->setStyleSheet(r.relayError.isEmpty() ? QString() : u"color: %1"_s.arg(StatusPalette::bad().name()));
    // A request in flight has no journal line yet: it is written when it ends.
    m_journal->setVisible(!live);
    m_journal->setText(live ? QString() : JournalFormat::requestLine(r));
}

} // namespace switchyard
