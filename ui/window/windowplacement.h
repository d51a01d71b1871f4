#pragma once

#include <QByteArray>
#include <QRect>
#include <QSize>

#include <optional>

namespace switchyard {

// Where the main window opens: its usual size when the screen has room for it, less on a small
// screen (a 1366×768 laptop), and the size the user left it at only if that still fits.
class WindowPlacement final
{
public:
    // The size the window likes best, on a screen with room for it.
    static constexpr QSize PreferredSize{1280, 860};
    // Room kept for the window manager's title bar and borders, which are not known before the
    // window is shown.
    static constexpr QSize FrameAllowance{16, 48};

    // The window's size (without frame) on a screen whose available area is available.
    static QSize defaultSize(const QRect &available);
    // The frame (title bar included) a QWidget::saveGeometry() recorded, and whether it was
    // maximized or full screen; nullopt for data that is not a saved geometry.
    struct Saved
    {
        QRect frame;
        bool maximized = false;
    };
    static std::optional<Saved> savedGeometry(const QByteArray &geometry);
    // Whether a saved geometry may be restored on a screen whose available area is available:
    // its frame is no larger than that area (a maximized window is maximized on this screen).
    static bool fits(const QByteArray &geometry, const QRect &available);
    // frame moved (and, if it is too large, shrunk) so that it lies inside available.
    static QRect inside(const QRect &frame, const QRect &available);

    WindowPlacement() = delete;
};

} // namespace switchyard
