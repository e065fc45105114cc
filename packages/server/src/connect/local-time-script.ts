/**
 * The connect page's one script, served by the broker (the page's CSP allows this URL and no
 * inline script). It shows each `<time data-local-time>` in the reader's own time zone and keeps
 * each `[data-time-left]` ("in 12 minutes") current. Without it the page reads in UTC.
 */
export const LOCAL_TIME_SCRIPT = `"use strict";
(function () {
  // dateStyle and timeStyle cannot be combined with timeZoneName, hence the fields one by one.
  var when = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
  var relative = typeof Intl.RelativeTimeFormat === "function" ? new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }) : null;
  function timeLeft(at) {
    var minutes = Math.round((at - Date.now()) / 60000);
    if (minutes < 0) return "expired";
    if (minutes < 1) return "in less than a minute";
    return relative ? relative.format(minutes, "minute") : "in " + minutes + " minutes";
  }
  function render() {
    document.querySelectorAll("time[data-local-time]").forEach(function (element) {
      var at = new Date(element.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      if (!element.title) element.title = element.textContent;
      element.textContent = when.format(at);
    });
    document.querySelectorAll("[data-time-left]").forEach(function (element) {
      var at = new Date(element.getAttribute("data-time-left"));
      if (!isNaN(at.getTime())) element.textContent = timeLeft(at.getTime());
    });
  }
  render();
  setInterval(render, 30000);
})();
`;
