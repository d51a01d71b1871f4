#include "window/noticebar.h"

#include "shared/statuspalette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace switchyard {

using namespace Qt::StringLiterals;

NoticeBar::NoticeBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(u"NoticeBar"_s);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(u"✕"_s);
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Close this message"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 6, 8);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void NoticeBar::showMessage(Kind kind, const QString &text)
{
    m_kind = kind;
    const QColor accent = kind == Kind::Error ? StatusPalette::bad()
                        : kind == Kind::Warning ? StatusPalette::busy()
                                                : StatusPalette::asleep();
    QColor fill = accent;
    fill.setAlpha(36);
    setStyleSheet(u"#NoticeBar { background: rgba(%1,%2,%3,%4); border: 1px solid %5; border-radius: 6px; }"_s
                      .arg(fill.red()).arg(fill.green()).arg(fill.blue()).arg(fill.alpha())
                      .arg(accent.name()));
    m_text->setText(text);
    show();
}

QString NoticeBar::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace switchyard
