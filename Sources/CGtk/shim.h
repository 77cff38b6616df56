#pragma once
#include <gtk/gtk.h>
#include <webkit/webkit.h>
