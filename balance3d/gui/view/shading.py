"""The table's GLSL shaders: Lambert lighting from an ambient light and up to two
directional lights, the first one's shadow map, a texture (the wood grain; white
where none) and the node's colour.

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
uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[%(n)d];
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_color;
out vec4 v_shadow;
void main() {
    vec4 eye = p3d_ModelViewMatrix * p3d_Vertex;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    v_normal = normalize(p3d_NormalMatrix * p3d_Normal);
    v_uv = p3d_MultiTexCoord0;
    v_color = p3d_Color;
    v_shadow = p3d_LightSource[0].shadowViewMatrix * eye;
}
"""

_FRAGMENT = """
#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
uniform struct p3d_LightModelParameters { vec4 ambient; } p3d_LightModel;
uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[%(n)d];
uniform float shadows;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_color;
in vec4 v_shadow;
out vec4 colour;
void main() {
    vec4 base = v_color * p3d_ColorScale * texture(p3d_Texture0, v_uv);
    vec3 n = normalize(v_normal);
    vec3 light = p3d_LightModel.ambient.rgb;
    for (int i = 0; i < %(n)d; ++i) {
        float lambert = max(dot(n, normalize(p3d_LightSource[i].position.xyz)), 0.0);
        float lit = 1.0;
        if (i == 0 && shadows > 0.5 && lambert > 0.0) {
            vec4 s = v_shadow;
            s.z -= %(bias)f * s.w;
            lit = textureProj(p3d_LightSource[0].shadowMap, s);
        }
        light += p3d_LightSource[i].color.rgb * lambert * lit;
    }
    colour = vec4(base.rgb * light, base.a);
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
def lit_shader() -> Shader:
    """The lit, shadowed shader (set the shader input ``shadows`` to 0 or 1)."""
    values = {"n": MAX_LIGHTS, "bias": SHADOW_BIAS}
    return Shader.make(Shader.SL_GLSL, _VERTEX % values, _FRAGMENT % values)


@cache
def unlit_shader() -> Shader:
    """Colour times texture, no light: marks, labels and overlays."""
    return Shader.make(Shader.SL_GLSL, _UNLIT_VERTEX, _UNLIT_FRAGMENT)
