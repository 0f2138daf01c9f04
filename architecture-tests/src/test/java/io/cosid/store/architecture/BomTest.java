package io.cosid.store.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The BOM manages cosid-store's own artifacts and nothing else: no parent (which would import the
 * build's third-party pins), no build section, every managed artifact ours at the project's
 * version. The invoker's bom-consumer build (src/it) shows that importing it works.
 */
@DisplayName("The BOM")
class BomTest {

    private final Document bom = parse(System.getProperty("cosid.bom.pom"));
    private final String version = System.getProperty("cosid.project.version");

    @Test
    @DisplayName("has no parent and no build section, so it brings nothing but its own versions")
    void standalone() {
        Element project = bom.getDocumentElement();
        assertThat(project.getElementsByTagName("parent").getLength()).isZero();
        assertThat(project.getElementsByTagName("build").getLength()).isZero();
        assertThat(project.getElementsByTagName("properties").getLength()).isZero();
        assertThat(text(project, "version")).isEqualTo(version);
    }

    @Test
    @DisplayName("manages every published module, all io.cosid at the project's version")
    void managesOwnArtifacts() {
        NodeList deps = bom.getElementsByTagName("dependency");
        List<String> managed = new ArrayList<>();
        for (int i = 0; i < deps.getLength(); i++) {
            Element dep = (Element) deps.item(i);
            assertThat(text(dep, "groupId")).isEqualTo("io.cosid");
            assertThat(text(dep, "version")).isEqualTo(version);
            managed.add(text(dep, "artifactId"));
        }
        assertThat(managed)
                .containsExactlyInAnyOrder(
                        "cosid-store-api",
                        "cosid-store-inmemory",
                        "cosid-store-zookeeper",
                        "cosid-store-jdbc",
                        "cosid-store-cosid",
                        "cosid-store-micrometer",
                        "cosid-store-spring-boot-autoconfigure",
                        "cosid-store-spring-boot-starter",
                        "cosid-store-tck");
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getParentNode() == parent) {
                return nodes.item(i).getTextContent().trim();
            }
        }
        return null;
    }

    private static Document parse(String path) {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new File(path));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the BOM at " + path, e);
        }
    }
}
