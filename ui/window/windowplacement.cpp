#include "window/windowplacement.h"

#include <QDataStream>

#include <algorithm>

namespace switchyard {

QSize WindowPlacement::defaultSize(const QRect &available)
{
    if (!available.isValid())
        return PreferredSize;
    return PreferredSize.boundedTo(available.size() - FrameAllowance);
}

std::optional<WindowPlacement::Saved> WindowPlacement::savedGeometry(const QByteArray &geometry)
{
    // QWidget::saveGeometry()'s format (stable since Qt 4): magic number, version, the frame
    // and normal geometries, the screen number, maximized, full screen.
    QDataStream stream(geometry);
    stream.setVersion(QDataStream::Qt_4_0);
    quint32 magic = 0;
    quint16 major = 0;
    quint16 minor = 0;
    QRect frame;
    QRect normal;
    qint32 screen = 0;
    quint8 maximized = 0;
    quint8 fullScreen = 0;
    stream >> magic >> major >> minor >> frame >> normal >> screen >> maximized >> fullScreen;
    if (stream.status() != QDataStream::Ok || magic != 0x1D9D0CB || !frame.isValid())
        return std::nullopt;
    return Saved{frame, maximized != 0 || fullScreen != 0};
}

bool WindowPlacement::fits(const QByteArray &geometry, const QRect &available)
{
    const std::optional<Saved> saved = savedGeometry(geometry);
    if (!saved)
        return false;
    if (saved->maximized)
        return true;
    return saved->frame.width() <= available.width() && saved->frame.height() <= available.height();
}

QRect WindowPlacement::inside(const QRect &frame, const QRect &available)
{
    QRect r(frame.topLeft(), frame.size().boundedTo(available.size()));
    r.moveLeft(std::clamp(r.left(), available.left(), available.right() - r.width() + 1));
    r.moveTop(std::clamp(r.top(), available.top(), available.bottom() - r.height() + 1));
    return r;
}

} // namespace switchyard
