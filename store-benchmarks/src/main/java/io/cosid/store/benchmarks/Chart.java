package io.cosid.store.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A line chart of the harness's figures, drawn with XChart into a PNG (headless). */
final class Chart {

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final Map<String, double[][]> series = new LinkedHashMap<>();
    private final Map<String, Boolean> dashed = new LinkedHashMap<>();
    private final Map<String, Boolean> markers = new LinkedHashMap<>();

    Chart(String title, String xTitle, String yTitle) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    /** A series drawn as a line with markers. */
    void series(String name, double[] x, double[] y) {
        series.put(name, new double[][] {x.clone(), y.clone()});
        dashed.put(name, false);
        markers.put(name, true);
    }

    /** A series of many points drawn as a plain line. */
    void line(String name, double[] x, double[] y) {
        series.put(name, new double[][] {x.clone(), y.clone()});
        dashed.put(name, false);
        markers.put(name, false);
    }

    /** A reference drawn as a dashed line without markers. */
    void reference(String name, double[] x, double[] y) {
        series.put(name, new double[][] {x.clone(), y.clone()});
        dashed.put(name, true);
        markers.put(name, false);
    }

    void write(Path png) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart =
                new XYChartBuilder()
                        .width(960)
                        .height(560)
                        .title(title)
                        .xAxisTitle(xTitle)
                        .yAxisTitle(yTitle)
                        .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        series.forEach(
                (name, xy) -> {
                    if (Arrays.stream(xy[1]).allMatch(Double::isNaN)) {
                        return;
                    }
                    XYSeries s = chart.addSeries(name, xy[0], xy[1]);
                    if (!Maps.at(markers, name)) {
                        s.setMarker(SeriesMarkers.NONE);
                    }
                    if (Maps.at(dashed, name)) {
                        s.setLineStyle(
                                new BasicStroke(
                                        2f,
                                        BasicStroke.CAP_BUTT,
                                        BasicStroke.JOIN_MITER,
                                        10f,
                                        new float[] {8f, 6f},
                                        0f));
                    }
                });
        try {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The client counts as chart x values. */
    static double[] xs(List<Integer> values) {
        return values.stream().mapToDouble(Integer::doubleValue).toArray();
    }
}
