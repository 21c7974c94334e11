"""빌드된 사이트를 127.0.0.1 의 빈 포트에서 HTTP 로 보내는 서버 하나 (요청 로그는 찍지 않습니다).

브라우저 테스트(tests/browser.py 의 server, 여러분의 문장으로의 네트워크 없이 확인)와 벤치마크(.ci/bench_browser_model.py,
.ci/lighthouse/bench.py)가 함께 씁니다. gzip=True 면 GitHub Pages 처럼 텍스트 파일을 gzip 으로 보냅니다: Lighthouse 는
사이트가 실제로 보내지는 대로 잽니다.
"""

import functools
import gzip
import http.server
import io
import threading
from pathlib import Path

COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".ipynb")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # 요청마다 연결을 닫아, 끝날 때 열린 소켓이 남지 않게 합니다

    def log_message(self, *args):
        pass


class _Gzip(_Quiet):
    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix in COMPRESSIBLE and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()


def serve(directory, gzip=False):
    """directory 를 띄우고 (서버, "http://127.0.0.1:<포트>/") 를 돌려줍니다. 끝낼 때는 stop(서버)."""
    handler = functools.partial(_Gzip if gzip else _Quiet, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def same_origin_only(context, origin, allow_data=False, foreign=None):
    """Playwright 문맥이 origin 밖으로 나가는 요청을 모두 막고, 막은 주소를 적을 목록을 돌려줍니다.

    사이트는 네트워크 없이 돌아가야 하므로 (글꼴·스크립트·모델 파일 모두 사이트 안), 바깥 요청은 막고 적어 두었다가
    테스트와 벤치마크가 그 목록이 비었는지 봅니다. foreign 을 주면 그 목록에 적습니다.
    """
    foreign = [] if foreign is None else foreign

    def route(r):
        url = r.request.url
        if url.startswith(origin) or (allow_data and url.startswith("data:")):
            r.continue_()
        else:
            foreign.append(url)
            r.abort()

    context.route("**/*", route)
    return foreign


def stop(httpd):
    httpd.shutdown()
    httpd.server_close()
