package io.cosid.store.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A line chart of throughput against contending clients, drawn with the JDK alone (headless
 * Java2D).
 */
final class Chart {

    private static final Color[] COLORS = {
        new Color(0x1f77b4),
        new Color(0x2ca02c),
        new Color(0xd62728),
        new Color(0x9467bd),
        new Color(0x000000),
        new Color(0xaaaaaa)
    };
    private static final int WIDTH = 900;
    private static final int HEIGHT = 540;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;

    private final String title;
    private final List<Integer> clients;
    private final Map<String, double[]> series = new LinkedHashMap<>();

    Chart(String title, List<Integer> clients) {
        this.title = title;
        this.clients = clients;
    }

    void series(String name, double[] perClients) {
        series.put(name, perClients);
    }

    void write(Path png) {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            draw(g);
        } finally {
            g.dispose();
        }
        try {
            ImageIO.write(image, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    private void draw(Graphics2D g) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(
                RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        double max =
                series.values().stream()
                        .flatMapToDouble(Arrays::stream)
                        .filter(d -> !Double.isNaN(d))
                        .max()
                        .orElse(1);
        double yMax = niceCeiling(max * 1.1);

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));

        // grid and y labels
        for (int i = 0; i <= 5; i++) {
            int y = TOP + plotH - i * plotH / 5;
            g.setColor(new Color(0xdddddd));
            g.drawLine(LEFT, y, LEFT + plotW, y);
            g.setColor(Color.DARK_GRAY);
            String label = String.format(Locale.ROOT, "%,.0f", yMax * i / 5);
            g.drawString(label, LEFT - 10 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        // x labels: clients, evenly spaced
        for (int i = 0; i < clients.size(); i++) {
            int x = xOf(i, plotW);
            String label = Integer.toString(clients.get(i));
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, TOP + plotH + 20);
        }
        g.drawString(
                "contending clients (each its own ZooKeeper session unless noted)",
                LEFT + plotW / 2 - 190,
                TOP + plotH + 45);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString(
                "successful range acquires / s (all clients)", -(TOP + plotH / 2 + 120), 25);
        rotated.dispose();
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, plotW, plotH);

        int s = 0;
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            Color color = COLORS[s % COLORS.length];
            g.setColor(color);
            g.setStroke(new BasicStroke(2.5f));
            double[] values = e.getValue();
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < values.length; i++) {
                if (Double.isNaN(values[i])) {
                    prevX = -1;
                    continue;
                }
                int x = xOf(i, plotW);
                int y = TOP + plotH - (int) Math.round(values[i] / yMax * plotH);
                g.fillOval(x - 4, y - 4, 8, 8);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, x, y);
                }
                prevX = x;
                prevY = y;
            }
            int ly = TOP + 18 + s * 18;
            g.drawLine(LEFT + 15, ly - 4, LEFT + 40, ly - 4);
            g.setColor(Color.BLACK);
            g.drawString(e.getKey(), LEFT + 48, ly);
            s++;
        }
    }

    private int xOf(int index, int plotW) {
        return clients.size() == 1
                ? LEFT + plotW / 2
                : LEFT + 30 + index * (plotW - 60) / (clients.size() - 1);
    }

    private static double niceCeiling(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(v, 1))));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
