// The floor for the map bench: plain GTK 4 and cairo building what HostShell's native map shows
// for 500 points — a header with a title and Done, a notice, a GtkDrawingArea drawing every point
// as a dot with its title and subtitle (labels made once, placed without overlap), and a
// list row per point — timed from the start of building to the end of the canvas's first
// draw, as HostShell times map-present → first draw. The list is a GtkListView (only the rows on
// screen are made), filled once the canvas has painted, as HostShell's is. Each round removes the map and builds it
// again. Prints one JSON line per round: {"milliseconds":…}. Usage: map_floor [ROUNDS]
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define POINTS 500
typedef struct { double lat, lon; char title[32], subtitle[32]; int tone; PangoLayout *label; } Point;
static Point points[POINTS];
static GtkStringList *ids;
static GtkWidget *overlay, *surface;
static gint64 started;
static gboolean drawn;
static int rounds, done;
static const double tones[5][3] = {{0.11, 0.44, 0.85}, {0.15, 0.64, 0.41}, {0.78, 0.53, 0}, {0.75, 0.11, 0.16}, {0.47, 0.46, 0.48}};

static gboolean build(gpointer data);

static gboolean next(gpointer data) {
  gtk_overlay_remove_overlay(GTK_OVERLAY(overlay), surface);
  surface = NULL;
  if (++done >= rounds) { exit(0); }
  g_timeout_add(200, build, NULL);
  return G_SOURCE_REMOVE;
}

static gboolean fill(gpointer data) {
  const char *titles[POINTS + 1];
  for (int i = 0; i < POINTS; i++) titles[i] = points[i].title;
  titles[POINTS] = NULL;
  gtk_string_list_splice(ids, 0, 0, titles);
  return G_SOURCE_REMOVE;
}

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data) {
  double south = 90, north = -90, west = 180, east = -180, margin = 28;
  for (int i = 0; i < POINTS; i++) {
    south = fmin(south, points[i].lat); north = fmax(north, points[i].lat);
    west = fmin(west, points[i].lon); east = fmax(east, points[i].lon);
  }
  double c = fmax(cos((south + north) / 2 * G_PI / 180), 0.05);
  double scale = fmin((width - 2 * margin) / ((east - west) * c), (height - 2 * margin) / (north - south));
  double ox = (width - (east - west) * c * scale) / 2, oy = (height - (north - south) * scale) / 2;
  cairo_set_source_rgb(cr, 0.93, 0.93, 0.92);
  cairo_paint(cr);
  static double x[POINTS], y[POINTS], taken[2 * POINTS][4];
  int ntaken = 0;
  for (int i = 0; i < POINTS; i++) {
    x[i] = ox + (points[i].lon - west) * c * scale; y[i] = oy + (north - points[i].lat) * scale;
    cairo_new_path(cr);
    cairo_set_source_rgb(cr, tones[points[i].tone][0], tones[points[i].tone][1], tones[points[i].tone][2]);
    cairo_arc(cr, x[i], y[i], 6, 0, 2 * G_PI);
    cairo_fill(cr);
    taken[ntaken][0] = x[i] - 6; taken[ntaken][1] = y[i] - 6; taken[ntaken][2] = 12; taken[ntaken][3] = 12; ntaken++;
  }
  cairo_set_source_rgba(cr, 0, 0, 0, 0.8);
  for (int i = 0; i < POINTS; i++) {
    int w, h;
    pango_layout_get_pixel_size(points[i].label, &w, &h);
    double bx = x[i] + 10, by = y[i] - h / 2.0;
    gboolean overlaps = bx + w > width;
    for (int j = 0; j < ntaken && !overlaps; j++)
      overlaps = j != i && bx < taken[j][0] + taken[j][2] && taken[j][0] < bx + w && by < taken[j][1] + taken[j][3] && taken[j][1] < by + h;
    if (overlaps) continue;
    taken[ntaken][0] = bx; taken[ntaken][1] = by; taken[ntaken][2] = w; taken[ntaken][3] = h; ntaken++;
    cairo_move_to(cr, bx, by);
    pango_cairo_show_layout(cr, points[i].label);
  }
  if (!drawn) {
    drawn = TRUE;
    printf("{\"milliseconds\":%.3f}\n", (g_get_monotonic_time() - started) / 1000.0);
    fflush(stdout);
    g_idle_add_full(G_PRIORITY_LOW, fill, NULL, NULL);
    g_timeout_add(100, next, NULL);
  }
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data) {
  GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10), *text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append(GTK_BOX(row), gtk_label_new(NULL));
  gtk_box_append(GTK_BOX(text), gtk_label_new(NULL));
  gtk_box_append(GTK_BOX(text), gtk_label_new(NULL));
  gtk_box_append(GTK_BOX(row), text);
  gtk_box_append(GTK_BOX(row), gtk_image_new_from_icon_name("go-next-symbolic"));
  gtk_list_item_set_child(item, row);
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data) {
  Point *p = &points[gtk_list_item_get_position(item)];
  GtkWidget *dot = gtk_widget_get_first_child(gtk_list_item_get_child(item)), *text = gtk_widget_get_next_sibling(dot);
  char markup[80];
  snprintf(markup, sizeof markup, "<span foreground=\"#%02x%02x%02x\">●</span>", (int)(tones[p->tone][0] * 255),
           (int)(tones[p->tone][1] * 255), (int)(tones[p->tone][2] * 255));
  gtk_label_set_markup(GTK_LABEL(dot), markup);
  gtk_label_set_text(GTK_LABEL(gtk_widget_get_first_child(text)), p->title);
  gtk_label_set_text(GTK_LABEL(gtk_widget_get_last_child(text)), p->subtitle);
}

static gboolean build(gpointer data) {
  started = g_get_monotonic_time();
  drawn = FALSE;
  surface = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_halign(surface, GTK_ALIGN_END);
  gtk_widget_set_size_request(surface, 560, -1);
  gtk_widget_add_css_class(surface, "background");
  GtkWidget *header = gtk_header_bar_new();
  gtk_header_bar_set_show_title_buttons(GTK_HEADER_BAR(header), FALSE);
  gtk_header_bar_set_title_widget(GTK_HEADER_BAR(header), gtk_label_new("Bench map"));
  gtk_header_bar_pack_end(GTK_HEADER_BAR(header), gtk_button_new_with_mnemonic("_Done"));
  gtk_box_append(GTK_BOX(surface), header);
  gtk_box_append(GTK_BOX(surface), gtk_label_new("Map tiles are not available offline"));
  GtkWidget *area = gtk_drawing_area_new();
  gtk_widget_set_vexpand(area, TRUE);
  for (int i = 0; i < POINTS; i++) {
    points[i].label = gtk_widget_create_pango_layout(area, NULL);
    char *markup = g_markup_printf_escaped("%s\n<small>%s</small>", points[i].title, points[i].subtitle);
    pango_layout_set_markup(points[i].label, markup, -1);
    g_free(markup);
  }
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw, NULL, NULL);
  gtk_box_append(GTK_BOX(surface), area);
  // The list as HostShell's: a GtkListView over the point ids, filled once the canvas painted.
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
  g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
  g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
  ids = gtk_string_list_new(NULL);
  GtkWidget *list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_single_selection_new(G_LIST_MODEL(ids))), factory);
  GtkWidget *scroller = gtk_scrolled_window_new();
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), list);
  gtk_widget_set_vexpand(scroller, TRUE);
  gtk_box_append(GTK_BOX(surface), scroller);
  gtk_overlay_add_overlay(GTK_OVERLAY(overlay), surface);
  return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app, gpointer data) {
  GtkWidget *window = gtk_application_window_new(app);
  gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
  overlay = gtk_overlay_new();
  gtk_overlay_set_child(GTK_OVERLAY(overlay), gtk_label_new("The page"));
  gtk_window_set_child(GTK_WINDOW(window), overlay);
  gtk_window_present(GTK_WINDOW(window));
  g_timeout_add(500, build, NULL);
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atoi(argv[1]) : 10;
  // The same 500 points as HostShell's bench: a deterministic spread over a city region.
  for (int i = 0; i < POINTS; i++) {
    points[i].lat = 60.10 + (i * 7919 % 1000) / 5000.0;
    points[i].lon = 24.80 + (i * 104729 % 1000) / 2500.0;
    snprintf(points[i].title, sizeof points[i].title, "Screen %d", i);
    snprintf(points[i].subtitle, sizeof points[i].subtitle, "Online");
    points[i].tone = i % 5;
  }
  GtkApplication *app = gtk_application_new(NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
  return g_application_run(G_APPLICATION(app), 1, argv);
}
