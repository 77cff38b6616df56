import CGtk
import HostCore

/// What every hosted app's window shows in place of its content until the content may show: the
/// loading mark with what is happening, or a failure screen with its icon, title, detail and
/// Retry — drawn from a `Screen` value, which the app's loading machine decides. An app puts
/// its content (page and chrome) in; `show(.page)` reveals it.
@MainActor
package final class ScreenView {
    /// A stack of the status page and the app's content.
    package let widget: WidgetPointer
    private let statusTitle: WidgetPointer
    private let statusDetail: WidgetPointer
    private let statusIcon: WidgetPointer
    private let spinner: WidgetPointer
    private let retryButton: WidgetPointer
    /// Called when the person presses Retry on a failure screen.
    package var onRetry: (() -> Void)?

    package init(content: WidgetPointer) {
        // Loading and failure share one status page: the loading mark (a spinner, which GTK
        // shows still when animations are off) or an icon, a title, a detail and Retry.
        let status = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_valign(status, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(status, 32)
        gtk_widget_set_margin_end(status, 32)
        spinner = gtk_spinner_new()!
        gtk_widget_set_size_request(spinner, 48, 48)
        statusIcon = gtk_image_new_from_icon_name("network-offline-symbolic")!
        gtk_image_set_pixel_size(cast(statusIcon), 64)
        gtk_widget_add_css_class(statusIcon, "dim-label")
        statusTitle = gtk_label_new("")!
        gtk_widget_add_css_class(statusTitle, "title-2")
        gtk_label_set_wrap(cast(statusTitle), 1)
        gtk_label_set_justify(cast(statusTitle), GTK_JUSTIFY_CENTER)
        statusDetail = gtk_label_new("")!
        gtk_label_set_wrap(cast(statusDetail), 1)
        gtk_label_set_justify(cast(statusDetail), GTK_JUSTIFY_CENTER)
        gtk_label_set_selectable(cast(statusDetail), 1)
        retryButton = gtk_button_new_with_mnemonic("_Retry")!
        gtk_widget_add_css_class(retryButton, "pill")
        gtk_widget_add_css_class(retryButton, "suggested-action")
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        for widget in [spinner, statusIcon, statusTitle, statusDetail, retryButton] { gtk_box_append(cast(status), widget) }

        widget = gtk_stack_new()!
        gtk_stack_set_transition_type(cast(widget), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_add_named(cast(widget), status, "status")
        gtk_stack_add_named(cast(widget), content, "content")
        gtk_stack_set_visible_child_name(cast(widget), "content")
        onSignal(raw(retryButton), "clicked") { [weak self] in self?.onRetry?() }
    }

    /// Shows `screen`: the loading mark with what is happening, a failure screen with Retry, or
    /// the content.
    package func show(_ screen: Screen) {
        switch screen {
        case .page:
            gtk_spinner_stop(cast(spinner))
            // At once, not cross-faded: the fade redraws the whole window every frame for 200 ms
            // on the main thread (CPU rendering), just as the page boots and makes its first
            // bridge calls; one call in a hundred waited a frame behind it (issue 28).
            gtk_stack_set_visible_child_full(cast(widget), "content", GTK_STACK_TRANSITION_TYPE_NONE)
        case .loading(let text):
            gtk_spinner_start(cast(spinner))
            gtk_widget_set_visible(spinner, 1)
            gtk_widget_set_visible(statusIcon, 0)
            gtk_widget_set_visible(retryButton, 0)
            gtk_label_set_text(cast(statusTitle), text)
            gtk_label_set_text(cast(statusDetail), "")
            gtk_stack_set_visible_child_name(cast(widget), "status")
        case .error(let error):
            gtk_spinner_stop(cast(spinner))
            gtk_widget_set_visible(spinner, 0)
            gtk_image_set_from_icon_name(cast(statusIcon), error.icon)
            gtk_widget_set_visible(statusIcon, 1)
            gtk_label_set_text(cast(statusTitle), error.title)
            gtk_label_set_text(cast(statusDetail), error.detail)
            gtk_widget_set_visible(retryButton, 1)
            gtk_stack_set_visible_child_name(cast(widget), "status")
            gtk_widget_grab_focus(retryButton)
        }
    }
}
