"""The table's GLSL shaders: Lambert lighting from an ambient light and up to two
directional lights, the first one's shadow map, a texture (the wood grain, on
textured parts) and the node's colour.

The lights are directional and the faces flat (see :mod:`.meshes`), so Lambert's
term is the same over a face and is computed per vertex; only the shadow test runs
per pixel (software OpenGL renders at a few frames a second otherwise).

Panda3D 1.10's automatic shader generator writes Cg, which Mesa's headless EGL
context cannot load ("profile is not supported"), so the view brings its own GLSL;
it runs the same in a window and offscreen.
"""
from __future__ import annotations

from functools import cache

from panda3d.core import Shader

#: Lights the lit shader reads (the sun first: it casts the shadows).
MAX_LIGHTS = 2
#: Depth offset (light clip space, 0..1) against shadow acne on lit faces.
SHADOW_BIAS = 0.0015

_VERTEX = """
#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat3 p3d_NormalMatrix;
in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec2 p3d_MultiTexCoord0;
in vec4 p3d_Color;
uniform vec4 p3d_ColorScale;
uniform struct p3d_LightModelParameters { vec4 ambient; } p3d_LightModel;
%(lights)s
out vec2 v_uv;
out vec4 v_color;
out vec3 v_light;
out vec3 v_sun;
out vec4 v_shadow;
void main() {
    vec4 eye = p3d_ModelViewMatrix * p3d_Vertex;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    vec3 n = normalize(p3d_NormalMatrix * p3d_Normal);
    v_light = p3d_LightModel.ambient.rgb;
    for (int i = 1; i < %(n)d; ++i) {
        v_light += p3d_LightSource[i].color.rgb
            * max(dot(n, normalize(p3d_LightSource[i].position.xyz)), 0.0);
    }
    v_sun = p3d_LightSource[0].color.rgb
        * max(dot(n, normalize(p3d_LightSource[0].position.xyz)), 0.0);
    v_uv = p3d_MultiTexCoord0;
    v_color = p3d_Color * p3d_ColorScale;
    v_shadow = p3d_LightSource[0].shadowViewMatrix * eye;
    v_shadow.z -= %(bias)f * v_shadow.w;
}
"""

_FRAGMENT = """
#version 130
uniform sampler2D p3d_Texture0;
%(lights)s
uniform float shadows;
in vec2 v_uv;
in vec4 v_color;
in vec3 v_light;
in vec3 v_sun;
in vec4 v_shadow;
out vec4 colour;
void main() {
    vec4 base = v_color%(texture)s;
    float lit = 1.0;
    if (shadows > 0.5 && v_sun.r + v_sun.g + v_sun.b > 0.0) {
        lit = textureProj(p3d_LightSource[0].shadowMap, v_shadow);
    }
    colour = vec4(base.rgb * (v_light + v_sun * lit), base.a);
}
"""

#: The lights' parameters, declared alike in both stages (GLSL links them).
_LIGHTS = """uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[%d];"""

_DEPTH_VERTEX = """
#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
in vec4 p3d_Vertex;
void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

_DEPTH_FRAGMENT = """
#version 130
out vec4 colour;
void main() {
    colour = vec4(1.0);
}
"""

_UNLIT_VERTEX = """
#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
in vec4 p3d_Vertex;
in vec2 p3d_MultiTexCoord0;
in vec4 p3d_Color;
out vec2 v_uv;
out vec4 v_color;
void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    v_uv = p3d_MultiTexCoord0;
    v_color = p3d_Color;
}
"""

_UNLIT_FRAGMENT = """
#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
in vec2 v_uv;
in vec4 v_color;
out vec4 colour;
void main() {
    colour = v_color * p3d_ColorScale * texture(p3d_Texture0, v_uv);
}
"""


@cache
def lit_shader(textured: bool = False) -> Shader:
    """The lit, shadowed shader (set the shader input ``shadows`` to 0 or 1);
    ``textured`` also multiplies by the node's texture (the wood grain)."""
    values = {"n": MAX_LIGHTS, "bias": SHADOW_BIAS, "lights": _LIGHTS % MAX_LIGHTS,
              "texture": " * texture(p3d_Texture0, v_uv)" if textured else ""}
    return Shader.make(Shader.SL_GLSL, _VERTEX % values, _FRAGMENT % values)


@cache
def unlit_shader() -> Shader:
    """Colour times texture, no light: marks, labels and overlays."""
    return Shader.make(Shader.SL_GLSL, _UNLIT_VERTEX, _UNLIT_FRAGMENT)


#: The soft-edged fragment shader: the rectangle's u runs 0..1 across its width
#: between the two long edges it was asked for (the geometry reaches beyond them);
#: each pixel's coverage is its distance to the nearer edge in pixels (from the
#: screen-space rate of u), plus half a pixel, clamped to 0..1.
_SOFT_FRAGMENT = """
#version 130
uniform vec4 p3d_ColorScale;
in vec2 v_uv;
in vec4 v_color;
out vec4 colour;
void main() {
    float per_pixel = max(fwidth(v_uv.x), 1e-6);
    float inside = min(v_uv.x, 1.0 - v_uv.x) / per_pixel;
    vec4 ink = v_color * p3d_ColorScale;
    colour = vec4(ink.rgb, ink.a * clamp(inside + 0.5, 0.0, 1.0));
}
"""


@cache
def soft_edge_shader() -> Shader:
    """Colour, no light, the two long edges (u = 0 and u = 1) antialiased by their
    distance in pixels: thin lines at a slant without multisampling."""
    return Shader.make(Shader.SL_GLSL, _UNLIT_VERTEX, _SOFT_FRAGMENT)


#: The text fragment shader: a font's glyph texture gives only coverage (alpha);
#: sampled as a colour, an alpha texture reads black, which would ink every label
#: black whatever its colour.
_TEXT_FRAGMENT = """
#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
in vec2 v_uv;
in vec4 v_color;
out vec4 colour;
void main() {
    vec4 ink = v_color * p3d_ColorScale;
    colour = vec4(ink.rgb, ink.a * texture(p3d_Texture0, v_uv).a);
}
"""


@cache
def text_shader() -> Shader:
    """Text in its own colour, no light: the glyph texture's alpha as coverage."""
    return Shader.make(Shader.SL_GLSL, _UNLIT_VERTEX, _TEXT_FRAGMENT)


@cache
def depth_shader() -> Shader:
    """Position only: what the sun's shadow camera draws with."""
    return Shader.make(Shader.SL_GLSL, _DEPTH_VERTEX, _DEPTH_FRAGMENT)
