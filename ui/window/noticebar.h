#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace switchyard {

// A message across the top of the window (no tray available, a config that did not load),
// in the colour of its kind, until it is closed or replaced. Not a dialog: the relay goes on.
class NoticeBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NoticeBar)

public:
    enum class Kind { Info, Warning, Error };

    explicit NoticeBar(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text);
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    Kind m_kind = Kind::Info;
    QLabel *m_text;
    QToolButton *m_close;
};

} // namespace switchyard
