#pragma once
// A folder the order does not list (layers_catch_ui_order).
